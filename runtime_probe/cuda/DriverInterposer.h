//===- DriverInterposer.h - Driver calls without CUPTI ------- -*- C++ -*-===//
//
// A wrapper for every driver function CUPTI has a callback id and a
// parameter struct for (the list is generated from the toolkit's headers
// by gen_driver_wrappers.py), as LaunchInterposer has for the launch entry
// points: the wrapper fills the function's CUPTI parameter struct, tells an
// observer before and after the real call, as CUPTI's enter and exit
// callbacks would, and returns the real call's result. With the copies of
// the driver's entry points redirected to them (EntryPointScan.h), the probe
// sees the driver calls of the CUDA runtime and of the program without
// subscribing to CUPTI, whose subscription alone slows a capture-heavy
// program by about 1.4x. Pure interposition: no CUPTI or driver calls.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_CUDA_DRIVERINTERPOSER_H
#define CAPTURE_PROBE_CUDA_DRIVERINTERPOSER_H

#include <cuda.h>
#include <cupti.h>
#include <vector>

namespace capture_probe {

/// One call of a wrapped driver function.
struct WrappedCall {
  /// CUPTI's driver callback id of the function, and its name as CUPTI's
  /// callbacks give it (cuMemAlloc_v2, cuStreamSynchronize_ptsz).
  CUpti_CallbackId Id;
  const char *Name;
  /// Called through a copy the CUDA runtime holds (its table of driver
  /// entry points): a driver call made for one of the runtime's calls.
  bool ByRuntime;
  /// The function's CUPTI parameter struct (NAME_params), filled from the
  /// call's arguments; null for a function without parameters.
  const void *Params;
  /// The return address in the code that called through the wrapper: where
  /// in the runtime a driver call was made.
  const void *Caller;
};

/// Called at a wrapped call's entry (\p Result null) and exit.
using CallObserver = void (*)(const WrappedCall &C, const CUresult *Result);

/// Installs the observer every wrapper calls (none: the wrappers only
/// forward).
void setCallObserver(CallObserver O);

/// A driver function the probe can wrap.
struct DriverFunction {
  CUpti_CallbackId Id;
  const char *Name;
};

/// Every one, in the order of CUPTI's ids.
const std::vector<DriverFunction> &wrappableDriverFunctions();

/// Replaces \p *Pfn, the driver function \p Id, by its wrapper for the
/// runtime's copies (\p ByRuntime) or for the others'. False, leaving
/// \p *Pfn as it was, if it is a wrapper already, if \p Id has no wrapper, or
/// if \p Id's wrappers already call another address.
bool wrapDriverFunction(CUpti_CallbackId Id, void **Pfn, bool ByRuntime);

/// Whether \p Address is where the wrappers keep the real functions (never
/// to be replaced by a wrapper).
bool isDriverWrapperStorage(const void *Address);

/// Calls of wrapped functions so far, by whether the runtime made them.
unsigned long long wrappedDriverCalls(bool ByRuntime);

} // namespace capture_probe

#endif // CAPTURE_PROBE_CUDA_DRIVERINTERPOSER_H
