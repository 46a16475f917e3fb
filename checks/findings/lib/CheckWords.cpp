//===- CheckWords.cpp - What a check says in both languages ---------------===//

#include "capture_lint/CheckWords.h"

namespace capture_lint {

MessageParts frozenHostValueWords(const std::string &State,
                                  const std::string &Through,
                                  const std::string &Work) {
  MessageParts M;
  M.Subject = State;
  M.HereNote = State + " is passed to " + Work + " here";
  M.Predicate =
      "is updated on the host inside the capture and passed " +
      (Through.empty() ? std::string() : "(through '" + Through + "') ") +
      "to " + Work;
  M.Consequence = "the graph records the value it has at capture time; "
                  "replays do not run the host update, so every replay "
                  "passes that same value";
  return M;
}

std::string branchConsequence(bool DeviceValue) {
  return std::string("the capture records only the path taken now, and "
                     "every replay repeats it whatever the ") +
         (DeviceValue ? "value" : "shape");
}

std::string unendedConsequence(const std::string &Runtime) {
  return "the stream stays in capture mode, so later work on it is captured "
         "into a graph nobody ends or fails (a second begin fails with " +
         Runtime + "ErrorIllegalState, syncs and unrelated allocations with " +
         Runtime + "ErrorStreamCaptureUnsupported)";
}

MessageParts unevenCollectiveWords(const std::string &Name,
                                   const std::string &Cond, bool Loop) {
  MessageParts M;
  M.Subject = Name;
  M.Predicate = Loop ? "runs as many times as a loop on the rank ('" + Cond +
                           "') repeats, which differs between ranks"
                     : "runs only on the ranks where '" + Cond + "' holds";
  M.Consequence = "a captured collective must be captured on every rank of "
                  "its communicator, so the ranks record different graphs "
                  "and a replay waits in " +
                  Name +
                  " for ranks whose graph lacks it (a hang, not an "
                  "error)";
  M.Fix = "make the collective on every rank and let the rank choose the "
          "data, not the call";
  M.HereNote = Name + " is called here";
  return M;
}

} // namespace capture_lint
