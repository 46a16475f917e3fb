//===- Collective.cpp - capture-collective, for Python --------------------===//
//
// A torch.distributed collective that only some ranks capture: under an
// `if` on the rank (`if dist.get_rank() == 0: dist.all_reduce(x)`) whose
// other arm makes none, or in a loop whose trip count is the rank. Every
// rank of the group must capture the collective, so the ranks' graphs
// differ and a replay hangs in it. The walker keeps the branches on the
// rank it is inside (a name with the word "rank", RankNames.h) and asks
// this rule at each collective of the catalog's `collectives` list, made
// there or in a function of the program called there. Object collectives
// and barriers anywhere in a region are the catalog's (CatalogCall.cpp).
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

#include "capture_lint/CheckWords.h"

namespace capture_lint::python::rules {

PyHazard unevenCollective(std::string Subject, std::string Cond, bool Loop,
                          PySite At, PySite Branch) {
  PyHazard H;
  H.Kind = PyHazard::UnevenCollective;
  H.Check = "capture-collective";
  H.Subject = std::move(Subject);
  H.Detail = std::move(Cond);
  H.Through = Loop ? "loop" : "";
  H.Site = At;
  H.Extra.push_back(
      {Branch, Loop ? "the loop on the rank" : "the branch on the rank"});
  return H;
}

Described describeUnevenCollective(const PyHazard &H) {
  return std::make_pair(
      Severity::Error,
      unevenCollectiveWords(H.Subject, H.Detail, H.Through == "loop"));
}

} // namespace capture_lint::python::rules
