//===- DriverEntryPoints.cpp - The driver's launch entry points -----------===//
//
// driverLaunchEntryPoints and driverFunctionEntryPoints (EntryPointScan.h):
// the part of the scan that asks the driver, kept apart so that the scan
// itself builds and is tested without one.
//
//===----------------------------------------------------------------------===//

#include "DriverInterposer.h"
#include "EntryPointScan.h"
#include <algorithm>
#include <dlfcn.h>

namespace capture_probe {

std::vector<KnownEntryPoint> driverLaunchEntryPoints() {
  static const char *const Names[3] = {"cuLaunchKernel", "cuLaunchKernelEx",
                                       "cuLaunchCooperativeKernel"};
  // The exported names, plain and per-thread.
  static const char *const Exports[3][2] = {
      {"cuLaunchKernel", "cuLaunchKernel_ptsz"},
      {"cuLaunchKernelEx", "cuLaunchKernelEx_ptsz"},
      {"cuLaunchCooperativeKernel", "cuLaunchCooperativeKernel_ptsz"}};
  std::vector<KnownEntryPoint> Out;
  auto Add = [&](void *P, int E, bool PerThread, const char *Symbol) {
    uintptr_t A = reinterpret_cast<uintptr_t>(P);
    if (!A)
      return;
    auto Same =
        std::find_if(Out.begin(), Out.end(),
                     [&](const KnownEntryPoint &K) { return K.Address == A; });
    if (Same == Out.end())
      Out.push_back({A, LaunchEntry(E), PerThread, 0, Symbol});
    else if (Symbol)
      Same->Symbol = Symbol;
  };
  void *Driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
  for (int E = 0; E < 3; ++E)
    for (bool PerThread : {false, true}) {
      void *P = nullptr;
      CUdriverProcAddressQueryResult Status;
      if (cuGetProcAddress(Names[E], &P, CUDA_VERSION,
                           PerThread
                               ? CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM
                               : CU_GET_PROC_ADDRESS_LEGACY_STREAM,
                           &Status) == CUDA_SUCCESS)
        Add(P, E, PerThread, nullptr);
      if (Driver)
        Add(dlsym(Driver, Exports[E][PerThread]), E, PerThread,
            Exports[E][PerThread]);
    }
  if (Driver)
    dlclose(Driver);
  return Out;
}

std::vector<KnownEntryPoint>
driverFunctionEntryPoints(bool (*Skip)(const char *Name)) {
  std::vector<KnownEntryPoint> Out;
  void *Driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
  if (!Driver)
    return Out;
  for (const DriverFunction &F : wrappableDriverFunctions())
    if (void *P = dlsym(Driver, F.Name); P && !(Skip && Skip(F.Name)))
      Out.push_back({reinterpret_cast<uintptr_t>(P), LaunchEntry::Kernel, false,
                     F.Id, F.Name});
  dlclose(Driver);
  return Out;
}

} // namespace capture_probe
