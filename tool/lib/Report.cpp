//===- Report.cpp - The checks' descriptions and shared report helpers ----===//

#include "Report.h"

namespace capture_lint {

unsigned Report::failingFindings() const {
  unsigned N = 0;
  for (const ReportFinding &F : Findings)
    if (F.Severity != "remark")
      ++N;
  return N + unsigned(Missed.size());
}

llvm::ArrayRef<CheckInfo> allChecks() {
  static const CheckInfo Checks[] = {
      {"capture-sync-call",
       "Synchronization or a query inside a CUDA/HIP graph capture region."},
      {"capture-host-read",
       "Device-to-host read inside a capture region (item(), .cpu(), a "
       "synchronous D2H copy, or a host read of an async copy's "
       "destination)."},
      {"capture-allocation",
       "Allocation or library set-up inside a capture region."},
      {"capture-shape-branch",
       "Host control flow on a tensor shape or a device value inside a "
       "capture region: replays repeat the recorded path."},
      {"capture-legacy-stream",
       "Work on the legacy default stream while a stream is capturing."},
      {"capture-unended-region",
       "A capture begun in a function and never ended there."},
      {"capture-frozen-host-value",
       "Host state the capture region updates (a counter, a flag value) "
       "passed to captured work by value: every replay passes the "
       "capture-time value."},
      {"capture-rng-state",
       "Generator seed or state read or changed inside a capture region "
       "(Python)."},
  };
  return Checks;
}

} // namespace capture_lint
