//===- LaunchInterposer.h - Kernel launches without CUPTI ---- -*- C++ -*-===//
//
// The CUDA runtime reaches the driver through entry points it asks
// cuGetProcAddress for, as do programs that use cudaGetDriverEntryPoint.
// When such a call returns a kernel-launch entry point (cuLaunchKernel,
// cuLaunchKernelEx, cuLaunchCooperativeKernel), the probe hands back a
// wrapper instead, which tells an observer before and after the real call,
// as CUPTI's enter and exit callbacks would. A launch then costs the probe a
// function call rather than CUPTI's callbacks in two domains (most of
// CUPTI's cost in a capture-heavy program). Pure interposition: no CUPTI
// calls (its header gives the parameter structs), no state beyond the real
// entry points.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_CUDA_LAUNCHINTERPOSER_H
#define CAPTURE_PROBE_CUDA_LAUNCHINTERPOSER_H

#include <cuda.h>

namespace capture_probe {

/// Which driver launch entry point a wrapper stands for; its parameters are
/// CUPTI's struct of that name (cuLaunchKernel_params, ...).
enum class LaunchEntry { Kernel, KernelEx, Cooperative };

/// One call of a wrapped entry point.
struct WrappedLaunch {
  LaunchEntry Entry;
  /// Handed out for the per-thread default stream (the _ptsz variant).
  bool PerThread;
  /// Handed out to the CUDA runtime for itself (not to a program's
  /// cudaGetDriverEntryPoint): the launch is the runtime's kernel launch.
  bool ByRuntime;
  /// cuLaunchKernel_params, cuLaunchKernelEx_params or
  /// cuLaunchCooperativeKernel_params, filled from the call's arguments.
  const void *Params;
};

/// Called at a wrapped launch's entry (\p Result null) and exit.
using LaunchObserver = void (*)(const WrappedLaunch &L, const CUresult *Result);

/// Installs the observer every wrapper calls (none: the wrappers only
/// forward).
void setLaunchObserver(LaunchObserver O);

/// The launch entry point \p Symbol names (cuGetProcAddress's base names),
/// if it is one.
bool launchEntryOf(const char *Symbol, LaunchEntry &Entry);

/// Replaces \p *Pfn, an entry point of kind \p Entry (the per-thread
/// variant if \p PerThread), by a wrapper that calls it. False if it is a
/// wrapper already or every wrapper of its kind is taken by other entry
/// points (then \p *Pfn is left as it was).
bool wrapEntryPoint(LaunchEntry Entry, bool PerThread, void **Pfn,
                    bool ByRuntime);

/// At the exit of a successful cuGetProcAddress for \p Symbol with \p Flags:
/// wraps the entry point in \p *Pfn if \p Symbol names a launch entry point.
bool wrapEntryPoint(const char *Symbol, cuuint64_t Flags, void **Pfn,
                    bool ByRuntime);

/// Whether \p Address is where the wrappers keep the real entry points
/// (never to be replaced by a wrapper).
bool isWrapperStorage(const void *Address);

/// Calls of wrapped entry points so far, by whether the runtime asked for
/// them (for the probe's profile).
unsigned long long wrappedLaunches(bool ByRuntime);

} // namespace capture_probe

#endif // CAPTURE_PROBE_CUDA_LAUNCHINTERPOSER_H
