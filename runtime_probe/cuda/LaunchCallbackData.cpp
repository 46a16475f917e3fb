//===- LaunchCallbackData.cpp - Wrapped launches as CUPTI callbacks -------===//
//
// See LaunchCallbackData.h.
//
//===----------------------------------------------------------------------===//

#include "LaunchCallbackData.h"
#include <cstdlib>
#include <cstring>

namespace capture_probe {
namespace {

/// The geometry, stream and kernel of a launch, whatever its entry point.
struct Launch {
  CUfunction F;
  dim3 Grid, Block;
  unsigned Shared;
  CUstream Stream;
  void **Args;
};

/// cuLaunchKernel's and cuLaunchCooperativeKernel's parameters, which
/// name their fields alike.
template <typename Params> Launch fromParams(const void *Raw) {
  auto *P = static_cast<const Params *>(Raw);
  return {P->f,
          dim3(P->gridDimX, P->gridDimY, P->gridDimZ),
          dim3(P->blockDimX, P->blockDimY, P->blockDimZ),
          P->sharedMemBytes,
          P->hStream,
          P->kernelParams};
}

Launch readLaunch(const WrappedLaunch &L) {
  switch (L.Entry) {
  case LaunchEntry::Kernel:
    return fromParams<cuLaunchKernel_params>(L.Params);
  case LaunchEntry::KernelEx: {
    auto *P = static_cast<const cuLaunchKernelEx_params *>(L.Params);
    const CUlaunchConfig &C = *P->config;
    return {P->f,
            dim3(C.gridDimX, C.gridDimY, C.gridDimZ),
            dim3(C.blockDimX, C.blockDimY, C.blockDimZ),
            C.sharedMemBytes,
            C.hStream,
            P->kernelParams};
  }
  case LaunchEntry::Cooperative:
    return fromParams<cuLaunchCooperativeKernel_params>(L.Params);
  }
  std::abort();
}

/// The runtime's launch: cudaLaunchCooperativeKernel for a cooperative
/// entry point, cudaLaunchKernel for the others (the runtime's <<<>>>,
/// cudaLaunchKernel and cudaLaunchKernelExC all come to one of them).
void asRuntimeLaunch(const WrappedLaunch &L, LaunchCallback &C) {
  bool Cooperative = L.Entry == LaunchEntry::Cooperative;
  C.Domain = CUPTI_CB_DOMAIN_RUNTIME_API;
  if (Cooperative)
    C.Id = L.PerThread
               ? CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000
               : CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000;
  else
    C.Id = L.PerThread ? CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000
                       : CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000;
  static const char *const Names[2][2] = {
      {"cudaLaunchKernel", "cudaLaunchKernel_ptsz"},
      {"cudaLaunchCooperativeKernel", "cudaLaunchCooperativeKernel_ptsz"}};
  C.Data.functionName = Names[Cooperative][L.PerThread];
  Launch K = readLaunch(L);
  // The two structs are laid out alike (cudaLaunchCooperativeKernel's too).
  C.Runtime = {reinterpret_cast<const void *>(K.F),
               K.Grid,
               K.Block,
               K.Args,
               K.Shared,
               reinterpret_cast<cudaStream_t>(K.Stream)};
  C.Data.functionParams = &C.Runtime;
}

void asDriverLaunch(const WrappedLaunch &L, LaunchCallback &C) {
  static const CUpti_CallbackId Ids[3][2] = {
      {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
       CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz},
      {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
       CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz},
      {CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
       CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz}};
  static const char *const Names[3][2] = {
      {"cuLaunchKernel", "cuLaunchKernel_ptsz"},
      {"cuLaunchKernelEx", "cuLaunchKernelEx_ptsz"},
      {"cuLaunchCooperativeKernel", "cuLaunchCooperativeKernel_ptsz"}};
  C.Domain = CUPTI_CB_DOMAIN_DRIVER_API;
  C.Id = Ids[int(L.Entry)][L.PerThread];
  C.Data.functionName = Names[int(L.Entry)][L.PerThread];
  C.Data.functionParams = L.Params;
}

} // namespace

LaunchCallback::LaunchCallback(const WrappedLaunch &L, const CUresult *Result) {
  if (L.ByRuntime)
    asRuntimeLaunch(L, *this);
  else
    asDriverLaunch(L, *this);
  // A per-thread entry point's null stream is the thread's own.
  Stream = readLaunch(L).Stream;
  if (!Stream && L.PerThread)
    Stream = CU_STREAM_PER_THREAD;
  Data.callbackSite = Result ? CUPTI_API_EXIT : CUPTI_API_ENTER;
  if (!Result)
    return;
  // The runtime returns the driver's code for the launch errors a capture
  // produces (900-909 and the launch failures agree in both APIs).
  DriverResult = *Result;
  RuntimeResult = cudaError_t(*Result);
  Data.functionReturnValue = L.ByRuntime ? static_cast<void *>(&RuntimeResult)
                                         : static_cast<void *>(&DriverResult);
}

LaunchCallbacksOff launchCallbacksOffFromEnv() {
  const char *V = std::getenv("CAPTURE_PROBE_LAUNCH_CALLBACKS");
  if (V && std::strcmp(V, "all-off") == 0)
    return LaunchCallbacksOff::All;
  if (V && std::strcmp(V, "on") == 0)
    return LaunchCallbacksOff::None;
  return LaunchCallbacksOff::Runtime;
}

const std::vector<CUpti_CallbackId> &runtimeLaunchIds() {
  static const std::vector<CUpti_CallbackId> Ids = {
      CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
      CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
      CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
      CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
      CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
      CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
      CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000,
      CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000};
  return Ids;
}

const std::vector<CUpti_CallbackId> &driverLaunchIds() {
  static const std::vector<CUpti_CallbackId> Ids = {
      CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
      CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
      CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
      CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
      CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
      CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz};
  return Ids;
}

bool isEntryPointQuery(CUpti_CallbackDomain Domain, CUpti_CallbackId Id) {
  return Domain == CUPTI_CB_DOMAIN_RUNTIME_API &&
         (Id == CUPTI_RUNTIME_TRACE_CBID_cudaGetDriverEntryPoint_v11030 ||
          Id == CUPTI_RUNTIME_TRACE_CBID_cudaGetDriverEntryPoint_ptsz_v11030 ||
          Id ==
              CUPTI_RUNTIME_TRACE_CBID_cudaGetDriverEntryPointByVersion_v12050 ||
          Id ==
              CUPTI_RUNTIME_TRACE_CBID_cudaGetDriverEntryPointByVersion_ptsz_v12050);
}

} // namespace capture_probe
