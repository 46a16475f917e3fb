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

} // namespace capture_lint
