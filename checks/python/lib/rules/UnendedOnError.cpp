//===- UnendedOnError.cpp - capture-unended-on-error, for Python ----------===//
//
// A capture begun with `g.capture_begin()` and ended with `g.capture_end()`
// in the same function, where a `return` or `raise` between them leaves the
// function with the capture open, or where the end is not in a `finally`
// block, so that any exception raised in between skips it. The stream stays
// in capture mode and the next capture (or sync, or allocation) fails far
// from the cause. `with torch.cuda.graph(g):` ends the capture on every way
// out. The walker notes the exits outside `try` blocks and whether the end
// is in a `finally` (PyWalker.cpp); this rule decides and words.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

#include "capture_lint/CheckWords.h"

namespace capture_lint::python::rules {

std::optional<PyHazard> unendedOnError(const std::vector<PyExit> &Exits,
                                       bool EndInFinally, PySite End,
                                       std::string EndText) {
  if (Exits.empty() && EndInFinally)
    return std::nullopt;
  PyHazard H;
  H.Kind = PyHazard::Unended;
  H.Check = "capture-unended-on-error";
  H.Detail = EndText;
  if (Exits.empty()) {
    H.Subject = "'" + EndText + "'";
    H.Site = End;
    return H;
  }
  H.Subject = std::string("'") + Exits.front().Verb + "'";
  H.Site = Exits.front().Site;
  H.Through = Exits.front().Verb;
  for (size_t I = 1; I < Exits.size(); ++I)
    H.Extra.push_back({Exits[I].Site, std::string("and '") + Exits[I].Verb +
                                          "' here leaves it open too"});
  H.Extra.push_back({End, "'" + EndText +
                              "' ends it only on the path that "
                              "reaches it"});
  return H;
}

Described describeUnendedOnError(const PyHazard &H, const PyRegion &R) {
  MessageParts M;
  M.Subject = H.Subject;
  M.HereNote = "it is here";
  std::string Graph =
      R.Stream.empty() ? "the graph" : "graph '" + R.Stream + "'";
  if (H.Through.empty()) {
    M.Predicate = "is not in a finally block, so an exception raised after "
                  "the capture into " +
                  Graph + " begins skips it";
    M.Fix =
        "end the capture in a finally block ('try: ... finally: " + H.Detail +
        "'), or capture with 'with torch.cuda.graph(...):', which ends "
        "it on every way out";
  } else {
    M.Predicate =
        "leaves the function with the capture into " + Graph + " still open";
    M.Fix = "call '" + H.Detail +
            "' before leaving, or end the capture in a finally block, or "
            "capture with 'with torch.cuda.graph(...):'";
  }
  M.Consequence = unendedConsequence("cuda");
  return std::make_pair(Severity::Warning, M);
}

} // namespace capture_lint::python::rules
