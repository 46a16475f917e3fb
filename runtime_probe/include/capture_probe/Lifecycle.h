//===- Lifecycle.h - What happened to the graphs captured -------*- C++ -*-===//
//
// After tracking: per capture site (the begin call's native and Python
// frames), how often it was captured, how often its graphs were
// instantiated and launched. A site whose graphs never launched, one that
// captures about once per launch (churn), and a graph instantiated about
// once per launch get lifecycle classes. Then identical captures (same
// sites, calls, results, outcome) are folded into one with a count, so a
// solver that captures thousands of times gives a report of one capture.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_LIFECYCLE_H
#define CAPTURE_PROBE_LIFECYCLE_H

#include "capture_probe/Report.h"

namespace capture_probe {

/// Captures at one site (or instantiations of one graph) from which churn
/// is reported.
inline constexpr unsigned ChurnCaptures = 3;

void analyzeLifecycle(std::vector<CaptureRecord> &Captures,
                      const Coverage &Cover);

/// What two calls must share to count as the same call of two identical
/// captures: everything the report says of a call but its sequence number,
/// thread and handles.
std::string callKey(const CallRecord &R, bool WithStack = true);

/// What two captures' calls must share for one list to stand for both: the
/// calls' keys in order, with their repeats. A cleanly captured call's
/// stack is left out (only the first capture begun at a call chain keeps
/// those: FirstCaptures), and its repeats are summed over the records that
/// differ only by it.
std::string callsKey(const std::vector<CallRecord> &Calls);

/// Folds identical captures into the first, with Repeats and LastId set and
/// lifecycle counts summed.
void aggregateIdentical(std::vector<CaptureRecord> &Captures);

} // namespace capture_probe

#endif // CAPTURE_PROBE_LIFECYCLE_H
