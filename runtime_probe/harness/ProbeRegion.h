//===- ProbeRegion.h - Run a region under capture ------------ -*- C++ -*-===//
//
// capture_probe::probe_region runs a callable under real stream capture on a
// fresh stream, replays the graph, and returns the probe's report of it:
//
//   float *out = ...;
//   capture_probe::ProbeOptions O;
//   O.mode = capture_probe::CaptureMode::Relaxed;
//   O.outputs = {{"out", out, n * sizeof(float)}};
//   O.reset = [&](cudaStream_t s, int run) { fill_inputs(s, run); };
//   auto R = capture_probe::probe_region([&](cudaStream_t s) { step(s); }, O);
//   EXPECT_TRUE(R.captured);
//   EXPECT_TRUE(R.report.Divergences.empty()) <<
//   capture_probe::summarize(R.report);
//
// With outputs named, the harness first runs the region eagerly once per
// replay (reset(s, k) before each) and keeps the outputs, then captures,
// and replays k = 0..replays-1 with the same reset, comparing byte for
// byte. A replay that differs from its eager run is a divergence: the
// silent host-read and shape-branch bugs that raise no error at all.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_HARNESS_PROBEREGION_H
#define CAPTURE_PROBE_HARNESS_PROBEREGION_H

#include "capture_probe/Report.h"
#include <cuda_runtime_api.h>
#include <functional>
#include <string>
#include <vector>

namespace capture_probe {

struct OutputBuffer {
  std::string name;
  const void *device = nullptr;
  size_t bytes = 0;
};

struct ProbeOptions {
  CaptureMode mode = CaptureMode::Global;
  bool non_blocking = true; // cudaStreamNonBlocking, as PyTorch's streams
  int replays = 3;
  std::vector<OutputBuffer> outputs;
  /// Puts the inputs of run k in place (eager runs and replays alike).
  std::function<void(cudaStream_t, int)> reset;
  /// Symbolize call sites (needs addr2line; programs built with -g).
  bool symbolize = true;
};

struct ProbeResult {
  ProbeReport report;    // the region's capture(s) and any divergences
  bool captured = false; // the capture succeeded and the graph replayed
  std::string error;     // why the harness itself could not run
};

ProbeResult probe_region(const std::function<void(cudaStream_t)> &region,
                         const ProbeOptions &options = {});

} // namespace capture_probe

#endif // CAPTURE_PROBE_HARNESS_PROBEREGION_H
