//===- HazardConditions.h - Which parameter values reach a hazard -*- C++ -*-//
//
// A function summarised for other translation units reaches some hazards
// only for some values of its parameters (`copy(..., Kind k)` reaches
// cudaMemcpy only for Kind::Sync). For each hazard, the values of each
// bool or enum parameter under which the function reaches it, so that the
// whole-program phase keeps only what a caller's constant arguments reach.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_HAZARDCONDITIONS_H
#define CAPTURE_LINT_HAZARDCONDITIONS_H

#include "capture_lint/Analysis.h"

#include <cstdint>
#include <vector>

namespace capture_lint {

/// A hazard is not reached while parameter \p Param has one of \p Unreached
/// (values not tried, such as an enum value cast from an integer, may
/// reach it).
struct ParamCondition {
  unsigned Param = 0;
  std::vector<int64_t> Unreached;
};

/// For each hazard of \p All (what \p FD reaches with nothing bound), the
/// values of \p FD's parameters under which it is not reached; empty for a
/// hazard every value reaches.
std::vector<std::vector<ParamCondition>>
hazardConditions(CaptureAnalyzer &Analyzer, const clang::FunctionDecl *FD,
                 const std::vector<RawHazard> &All);

/// Whether a call passing \p Args (parameter index, value) may reach a
/// hazard with conditions \p When.
bool conditionsAllow(const std::vector<ParamCondition> &When,
                     const std::vector<std::pair<unsigned, int64_t>> &Args);

} // namespace capture_lint

#endif // CAPTURE_LINT_HAZARDCONDITIONS_H
