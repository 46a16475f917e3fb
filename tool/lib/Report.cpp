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
       "Synchronization or a query inside a CUDA/HIP graph capture region.",
       "A synchronize or query of a capturing stream, of the device or of "
       "the legacy stream fails (cudaErrorStreamCaptureUnsupported or "
       "...Implicit) and invalidates the capture; the error often surfaces "
       "only later, as 'capture invalidated' at the end.",
       "Synchronize after cudaGraphLaunch, outside the region; order work "
       "inside the region with events recorded on the capturing stream.",
       "error"},
      {"capture-host-read",
       "Device-to-host read inside a capture region (item(), .cpu(), a "
       "synchronous D2H copy, or a host read of an async copy's "
       "destination).",
       "A synchronous read-back synchronizes and fails; an asynchronous copy "
       "is recorded and runs only at replay, so host code reading its "
       "destination sees stale data and is not part of the graph.",
       "Keep the value on the device for the next kernel, or read it after "
       "the graph launch and a synchronize; use a conditional graph node "
       "for data-dependent control flow.",
       "error"},
      {"capture-allocation",
       "Allocation or library set-up inside a capture region.",
       "cudaMalloc, cudaFree and library set-up fail in global and "
       "thread_local capture and invalidate it; in relaxed mode they run "
       "once at capture time and are not replayed.",
       "Allocate before the capture (a workspace or pool that outlives the "
       "graph), or use cudaMallocAsync/cudaFreeAsync on the capturing "
       "stream, which become graph memory nodes.",
       "error"},
      {"capture-shape-branch",
       "Host control flow on a tensor shape or a device value inside a "
       "capture region: replays repeat the recorded path.",
       "The capture records only the branch taken at capture time; every "
       "replay repeats it whatever the shape or value is then.",
       "Capture one graph per shape bucket (pad inputs to fixed shapes), or "
       "decide on the device (a device-side predicate or a conditional "
       "graph node).",
       "warning"},
      {"capture-legacy-stream",
       "Work on the legacy default stream while a stream is capturing.",
       "With a blocking capture stream it fails "
       "(cudaErrorStreamCaptureImplicit) and invalidates the capture; with a "
       "non-blocking one it runs now and is missing from the graph.",
       "Pass the capturing stream explicitly (capture-lint --fix does this "
       "where it is safe).",
       "error"},
      {"capture-unended-region",
       "A capture begun in a function and never ended there.",
       "The stream stays in capture mode: later work on it is captured into "
       "a graph nobody ends, or fails.",
       "End the capture on every path, error returns included; name a "
       "function that ends it elsewhere in .capture-lint.json.",
       "warning"},
      {"capture-frozen-host-value",
       "Host state the capture region updates (a counter, a flag value) "
       "passed to captured work by value: every replay passes the "
       "capture-time value.",
       "A graph records kernel arguments when they are captured; replays do "
       "not run the host code that updated the counter, so they pass the "
       "same value every time (kernels waiting for a new flag value hang or "
       "read stale data).",
       "Keep the counter in device memory and update it with a kernel "
       "inside the graph, or update the node's parameters before each "
       "launch (cudaGraphExecKernelNodeSetParams).",
       "warning"},
      {"capture-rng-state",
       "Generator seed or state read or changed inside a capture region "
       "(Python).",
       "Reading, saving or seeding a CUDA generator during capture fails or "
       "changes the state only once, at capture time.",
       "Seed and save the generator state before the capture; random ops "
       "inside the graph need nothing (each replay uses the next offset).",
       "error"},
  };
  return Checks;
}

void Report::addFinding(ReportFinding F) {
  if (FindingKeys.insert({F.Check, F.Loc.File, F.Offset, F.Message}).second)
    Findings.push_back(std::move(F));
}

} // namespace capture_lint
