//===- HostSideEffect.cpp - capture-host-side-effect, for Python ----------===//
//
// Host state that outlives the region, updated in it: a counter of
// persistent state (`self.step += 1`, `calls = calls + 1` of a global), or
// a host value (a number, a string, a shape) added to a persistent
// container (`self.lengths.append(n)`). A graph records GPU work only: the
// update runs once, when the graph is captured, and never on replay, so code
// that reads the state after replays sees the capture-time value.
//
// Precision first: plain stores (`self.captured = True`), tensors stored or
// appended (a graph's static outputs), locals, and logging are not
// reported; an update whose value the region passes to captured work is
// capture-frozen-host-value's, and is reported there only. The walker notes
// the updates (FrozenHostValue.cpp: noteUpdate, noteContainerUpdate).
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

namespace capture_lint::python::rules {

PyHazard hostSideEffect(std::string Subject, std::string Update, PySite At) {
  PyHazard H;
  H.Kind = PyHazard::HostUpdate;
  H.Check = "capture-host-side-effect";
  H.Subject = std::move(Subject);
  H.Detail = std::move(Update);
  H.Site = At;
  return H;
}

Described describeHostSideEffect(const PyHazard &H) {
  MessageParts M;
  M.Subject = H.Detail;
  M.HereNote = "the update is here";
  M.Predicate = "updates " + H.Subject +
                ", host state that outlives the "
                "region";
  M.Consequence = "a graph records GPU work only, so the update runs once, "
                  "when the graph is captured, and never on replay: after "
                  "any number of replays " +
                  H.Subject + " holds its capture-time value";
  M.Fix = "move the update out of the region, next to the replay() that "
          "stands for this work, or keep the state in a device tensor "
          "updated in place inside the graph (step.add_(1))";
  return std::make_pair(Severity::Warning, M);
}

} // namespace capture_lint::python::rules
