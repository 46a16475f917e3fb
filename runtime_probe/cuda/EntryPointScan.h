//===- EntryPointScan.h - Launch entry points fetched before -*- C++ -*-===//
//
// The CUDA runtime fetches its driver entry points (cuGetProcAddress) when
// it loads the driver, before it calls cuInit, which is when the driver
// loads the probe: the probe never sees those calls. What it can see is
// where the runtime keeps them. This scan finds every copy of a launch
// entry point (cuLaunchKernel, cuLaunchKernelEx, cuLaunchCooperativeKernel,
// each plain and per-thread) in the writable data of the loaded modules
// (the runtime's table, a GOT entry of a library linked against the
// driver) and replaces it by the probe's wrapper (LaunchInterposer.h),
// which calls the same entry point. The driver's, CUPTI's and the probe's
// own modules are left alone. Only driverLaunchEntryPoints calls the driver
// (DriverEntryPoints.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_CUDA_ENTRYPOINTSCAN_H
#define CAPTURE_PROBE_CUDA_ENTRYPOINTSCAN_H

#include "LaunchInterposer.h"
#include <cstdint>
#include <string>
#include <vector>

namespace capture_probe {

/// A launch entry point as the driver hands it out.
struct KnownEntryPoint {
  uintptr_t Address;
  LaunchEntry Entry;
  bool PerThread;
};

struct EntryPointScan {
  /// "module+0xoffset" of each copy replaced.
  std::vector<std::string> Replaced;
  /// Bytes of writable data read, and the entry points looked for.
  unsigned long long BytesScanned = 0;
  unsigned EntryPoints = 0;
  /// How long the scan took.
  double Milliseconds = 0;
};

/// Replaces every copy of \p Entries in the writable data of the loaded
/// modules by its wrapper: the runtime's own (WrappedLaunch::ByRuntime) in
/// the program (the static runtime) and in libcudart, a library's own
/// driver calls elsewhere.
/// The driver's and CUPTI's modules are left alone, and the probe's own
/// (the one holding this code) unless \p ScanProbeModule (tests); the
/// wrappers' own copies of the real entry points always are.
EntryPointScan redirectEntryPoints(const std::vector<KnownEntryPoint> &Entries,
                                   bool ScanProbeModule = false);

/// What the driver hands out for each launch entry point, through
/// cuGetProcAddress (as the runtime asks for them) and as exported
/// symbols. Asks the driver: call before CUPTI's callbacks are on.
std::vector<KnownEntryPoint> driverLaunchEntryPoints();

} // namespace capture_probe

#endif // CAPTURE_PROBE_CUDA_ENTRYPOINTSCAN_H
