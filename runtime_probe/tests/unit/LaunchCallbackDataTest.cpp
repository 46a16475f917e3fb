//===- LaunchCallbackDataTest.cpp - Wrapped launches as CUPTI callbacks ---===//
//
// The runtime's launches read as cudaLaunchKernel's callback (its id, name,
// parameter struct and a cudaError_t), a program's driver launches as the
// driver entry point's own.
//
//===----------------------------------------------------------------------===//

#include "LaunchCallbackData.h"
#include <gtest/gtest.h>

using namespace capture_probe;

namespace {

cuLaunchKernel_params kernelParams() {
  cuLaunchKernel_params P = {};
  P.f = reinterpret_cast<CUfunction>(0x42);
  P.gridDimX = 5;
  P.blockDimX = 64;
  P.sharedMemBytes = 128;
  P.hStream = reinterpret_cast<CUstream>(0x77);
  return P;
}

TEST(LaunchCallbackDataTest, TheRuntimesLaunchIsCudaLaunchKernel) {
  cuLaunchKernel_params P = kernelParams();
  WrappedLaunch L{LaunchEntry::Kernel, /*PerThread=*/true, /*ByRuntime=*/true,
                  &P};
  LaunchCallback Enter(L, nullptr);
  EXPECT_EQ(Enter.Domain, CUPTI_CB_DOMAIN_RUNTIME_API);
  EXPECT_EQ(Enter.Id, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000);
  EXPECT_STREQ(Enter.Data.functionName, "cudaLaunchKernel_ptsz");
  EXPECT_EQ(Enter.Data.callbackSite, CUPTI_API_ENTER);
  EXPECT_EQ(Enter.Data.functionReturnValue, nullptr);
  auto *R = static_cast<const cudaLaunchKernel_v7000_params *>(
      Enter.Data.functionParams);
  EXPECT_EQ(R->func, reinterpret_cast<const void *>(0x42));
  EXPECT_EQ(R->gridDim.x, 5u);
  EXPECT_EQ(R->blockDim.x, 64u);
  EXPECT_EQ(R->sharedMem, 128u);
  EXPECT_EQ(R->stream, reinterpret_cast<cudaStream_t>(0x77));

  CUresult Result = CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
  LaunchCallback Exit(L, &Result);
  EXPECT_EQ(Exit.Data.callbackSite, CUPTI_API_EXIT);
  EXPECT_EQ(*static_cast<const cudaError_t *>(Exit.Data.functionReturnValue),
            cudaErrorStreamCaptureImplicit);
}

TEST(LaunchCallbackDataTest, ARuntimeCooperativeLaunchAndAnExLaunch) {
  cuLaunchCooperativeKernel_params C = {};
  C.gridDimX = 2;
  WrappedLaunch Coop{LaunchEntry::Cooperative, false, true, &C};
  LaunchCallback A(Coop, nullptr);
  EXPECT_EQ(A.Id, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000);
  EXPECT_STREQ(A.Data.functionName, "cudaLaunchCooperativeKernel");

  CUlaunchConfig Config = {};
  Config.gridDimX = 9;
  Config.hStream = reinterpret_cast<CUstream>(0x5);
  cuLaunchKernelEx_params X = {&Config, reinterpret_cast<CUfunction>(0x9),
                               nullptr, nullptr};
  WrappedLaunch Ex{LaunchEntry::KernelEx, false, true, &X};
  LaunchCallback B(Ex, nullptr);
  EXPECT_EQ(B.Id, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000);
  auto *R =
      static_cast<const cudaLaunchKernel_v7000_params *>(B.Data.functionParams);
  EXPECT_EQ(R->gridDim.x, 9u);
  EXPECT_EQ(R->func, reinterpret_cast<const void *>(0x9));
  EXPECT_EQ(R->stream, reinterpret_cast<cudaStream_t>(0x5));
}

TEST(LaunchCallbackDataTest, AProgramsDriverLaunchIsTheDriverCall) {
  cuLaunchKernel_params P = kernelParams();
  WrappedLaunch L{LaunchEntry::Kernel, false, /*ByRuntime=*/false, &P};
  CUresult Result = CUDA_SUCCESS;
  LaunchCallback C(L, &Result);
  EXPECT_EQ(C.Domain, CUPTI_CB_DOMAIN_DRIVER_API);
  EXPECT_EQ(C.Id, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel);
  EXPECT_STREQ(C.Data.functionName, "cuLaunchKernel");
  EXPECT_EQ(C.Data.functionParams, &P);
  EXPECT_EQ(*static_cast<const CUresult *>(C.Data.functionReturnValue),
            CUDA_SUCCESS);
}

TEST(LaunchCallbackDataTest, TheLaunchIdsTheWrappersReplace) {
  const auto &R = runtimeLaunchIds();
  EXPECT_NE(std::find(R.begin(), R.end(),
                      CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000),
            R.end());
  EXPECT_NE(std::find(R.begin(), R.end(),
                      CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000),
            R.end());
  EXPECT_EQ(driverLaunchIds().size(), 6u);
  EXPECT_TRUE(isEntryPointQuery(
      CUPTI_CB_DOMAIN_RUNTIME_API,
      CUPTI_RUNTIME_TRACE_CBID_cudaGetDriverEntryPoint_v11030));
  EXPECT_FALSE(isEntryPointQuery(CUPTI_CB_DOMAIN_DRIVER_API,
                                 CUPTI_DRIVER_TRACE_CBID_cuGetProcAddress));
}

} // namespace
