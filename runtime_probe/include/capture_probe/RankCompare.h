//===- RankCompare.h - Captured collectives across ranks --------*- C++ -*-===//
//
// `capture-probe compare`: each rank of a multi-process program (one report
// per rank) must capture the same collective kernels in the same order, or
// the graphs wait for each other forever at replay. This lists each rank's
// captures that hold collectives (NCCL kernels), repeats expanded, and
// reports the first place where the ranks differ.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_RANKCOMPARE_H
#define CAPTURE_PROBE_RANKCOMPARE_H

#include "capture_probe/Report.h"
#include <string>
#include <vector>

namespace capture_probe {

/// Returns true when every rank captured the same collectives; \p Text says
/// what was compared and, otherwise, the first divergence. \p Names: one per
/// report (their file names).
bool compareRanks(const std::vector<ProbeReport> &Ranks,
                  const std::vector<std::string> &Names, std::string &Text);

} // namespace capture_probe

#endif // CAPTURE_PROBE_RANKCOMPARE_H
