//===- EntryPointScan.h - Entry points fetched before the probe -*- C++ -*-===//
//
// The CUDA runtime fetches its driver entry points (cuGetProcAddress) when
// it loads the driver, before it calls cuInit, which is when the driver
// loads the probe: the probe never sees those calls. What it can see is
// where the runtime keeps them. This scan finds every copy of a known entry
// point in the writable data of the loaded modules (the runtime's table, a
// GOT entry of a library linked against the driver) and replaces it by the
// probe's wrapper, which calls the same entry point: a launch entry point
// (cuLaunchKernel, cuLaunchKernelEx, cuLaunchCooperativeKernel, each plain
// and per-thread) by LaunchInterposer's, any other driver function by
// DriverInterposer's. The driver's, CUPTI's and the probe's own modules are
// left alone. Only driverLaunchEntryPoints and driverFunctionEntryPoints
// call the driver (DriverEntryPoints.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_CUDA_ENTRYPOINTSCAN_H
#define CAPTURE_PROBE_CUDA_ENTRYPOINTSCAN_H

#include "LaunchInterposer.h"
#include <cstdint>
#include <cupti.h>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace capture_probe {

/// An entry point as the driver hands it out: a launch entry point
/// (\p Entry, \p PerThread), or, if \p DriverId is set, the driver function
/// of that CUPTI id (DriverInterposer.h). \p Symbol: the name the driver
/// exports it by, if it is that export (a module's import of that name
/// binds to it).
struct KnownEntryPoint {
  uintptr_t Address;
  LaunchEntry Entry;
  bool PerThread;
  CUpti_CallbackId DriverId = 0;
  const char *Symbol = nullptr;
};

/// The modules scans have read, by name and load address.
using ScannedModules = std::set<std::pair<std::string, uintptr_t>>;

struct EntryPointScan {
  /// "module+0xoffset" of each copy replaced.
  std::vector<std::string> Replaced;
  /// Bytes of writable data read, and the entry points looked for.
  unsigned long long BytesScanned = 0;
  unsigned EntryPoints = 0;
  /// Modules read.
  unsigned Modules = 0;
  /// How long the scan took.
  double Milliseconds = 0;
};

/// Replaces every copy of \p Entries (any order) in the writable data of the
/// loaded modules by its wrapper: the runtime's own (WrappedLaunch::ByRuntime)
/// in the program (the static runtime) and in libcudart, a library's own driver
/// calls elsewhere. The driver's and CUPTI's modules are left alone, and the
/// probe's own (the one holding this code) unless \p ScanProbeModule (tests);
/// the wrappers' own copies of the real entry points always are.
/// With \p Scanned, the modules it holds are left alone and those read are
/// added: a later scan reads only the modules loaded since.
///
/// With \p Imports, each module's import slots (ImportSlots.h) are
/// redirected too: a slot of an exported entry point (\p Symbol) not yet
/// bound, where the dynamic linker would bind it to that entry point, and
/// the slots of dlsym and dlvsym (DlsymInterposer.h: entry points a module
/// looks up after the scan; the caller installs the lookup observer).
EntryPointScan redirectEntryPoints(const std::vector<KnownEntryPoint> &Entries,
                                   bool ScanProbeModule = false,
                                   ScannedModules *Scanned = nullptr,
                                   bool Imports = false);

/// Replaces \p *Pfn by the wrapper of the entry point it holds, if it is
/// one of \p Entries (sorted by address). False if it is not, or cannot be.
bool wrapKnownEntryPoint(const std::vector<KnownEntryPoint> &Entries,
                         void **Pfn, bool ByRuntime);

/// What the driver hands out for each launch entry point, through
/// cuGetProcAddress (as the runtime asks for them) and as exported
/// symbols. Asks the driver: call before CUPTI's callbacks are on.
std::vector<KnownEntryPoint> driverLaunchEntryPoints();

/// The exported address of every driver function DriverInterposer can wrap
/// but those \p Skip names (the probe leaves lookups alone).
std::vector<KnownEntryPoint>
driverFunctionEntryPoints(bool (*Skip)(const char *Name));

} // namespace capture_probe

#endif // CAPTURE_PROBE_CUDA_ENTRYPOINTSCAN_H
