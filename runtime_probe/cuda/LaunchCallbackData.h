//===- LaunchCallbackData.h - Wrapped launches as callbacks -*- C++ -*-===//
//
// A launch that reached one of the probe's wrappers (LaunchInterposer.h),
// written as the callback CUPTI would have delivered for it, so that the
// backend handles it as any other call: the runtime's kernel launch when the
// runtime asked for the entry point (cudaLaunchKernel's id, name and
// parameter struct, its result as a cudaError_t), else the driver entry
// point itself. Also which of CUPTI's launch callbacks the wrappers replace.
// No state, no CUDA calls.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_CUDA_LAUNCHCALLBACKDATA_H
#define CAPTURE_PROBE_CUDA_LAUNCHCALLBACKDATA_H

#include "LaunchInterposer.h"
#include <cuda_runtime_api.h>
#include <cupti.h>
#include <vector>

namespace capture_probe {

/// A wrapped launch in CUPTI's terms. Holds the runtime's parameter struct
/// and the result that Data points to: not to be copied.
struct LaunchCallback {
  CUpti_CallbackDomain Domain = CUPTI_CB_DOMAIN_DRIVER_API;
  CUpti_CallbackId Id = 0;
  CUpti_CallbackData Data = {};
  cudaLaunchKernel_v7000_params Runtime = {};
  cudaError_t RuntimeResult = cudaSuccess;
  CUresult DriverResult = CUDA_SUCCESS;
  /// The stream the kernel was launched on (CU_STREAM_PER_THREAD for a
  /// per-thread entry point's null stream).
  CUstream Stream = nullptr;

  LaunchCallback(const WrappedLaunch &L, const CUresult *Result);
  LaunchCallback(const LaunchCallback &) = delete;
  LaunchCallback &operator=(const LaunchCallback &) = delete;
};

/// Which of CUPTI's launch callbacks are switched off once the runtime's
/// launches reach the wrappers (CAPTURE_PROBE_LAUNCH_CALLBACKS):
///   runtime (the default): the runtime's launch callbacks; the driver's
///     stay, for programs that call the driver's launch functions they
///     linked or looked up with dlsym (Triton's launcher, say);
///   all-off: the driver's too (such launches are then not seen);
///   on: none (the wrappers' calls are nested in CUPTI's and ignored).
enum class LaunchCallbacksOff { Runtime, All, None };
LaunchCallbacksOff launchCallbacksOffFromEnv();

/// CUPTI's ids of the launches that reach the wrappers, by domain.
const std::vector<CUpti_CallbackId> &runtimeLaunchIds();
const std::vector<CUpti_CallbackId> &driverLaunchIds();

/// Whether runtime call \p Id hands a driver entry point to the program
/// (cudaGetDriverEntryPoint and its versions).
bool isEntryPointQuery(CUpti_CallbackDomain Domain, CUpti_CallbackId Id);

} // namespace capture_probe

#endif // CAPTURE_PROBE_CUDA_LAUNCHCALLBACKDATA_H
