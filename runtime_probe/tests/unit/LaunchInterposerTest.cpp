//===- LaunchInterposerTest.cpp - The launch wrappers, with stand-ins -----===//
//
// A stand-in entry point handed to wrapEntryPoint: the wrapper it returns
// calls it with the same arguments and returns its result, and the observer
// sees the call before and after, with the launch's parameters.
//
//===----------------------------------------------------------------------===//

#include "LaunchInterposer.h"
#include <cupti.h>
#include <gtest/gtest.h>

using namespace capture_probe;

namespace {

struct Seen {
  int Enters = 0, Exits = 0;
  CUresult Result = CUDA_SUCCESS;
  LaunchEntry Entry = LaunchEntry::Kernel;
  bool PerThread = false, ByRuntime = false;
  unsigned GridX = 0;
  CUstream Stream = nullptr;
  bool RealCalledInside = false;
};
Seen Observed;
int RealCalls = 0;
unsigned RealGridX = 0;

void observe(const WrappedLaunch &L, const CUresult *Result) {
  if (Result) {
    ++Observed.Exits;
    Observed.Result = *Result;
    return;
  }
  ++Observed.Enters;
  Observed.RealCalledInside = RealCalls == 0;
  Observed.Entry = L.Entry;
  Observed.PerThread = L.PerThread;
  Observed.ByRuntime = L.ByRuntime;
  if (L.Entry == LaunchEntry::KernelEx) {
    auto *P = static_cast<const cuLaunchKernelEx_params *>(L.Params);
    Observed.GridX = P->config->gridDimX;
    Observed.Stream = P->config->hStream;
  } else {
    auto *P = static_cast<const cuLaunchKernel_params *>(L.Params);
    Observed.GridX = P->gridDimX;
    Observed.Stream = P->hStream;
  }
}

CUresult CUDAAPI standInLaunch(CUfunction, unsigned GX, unsigned, unsigned,
                               unsigned, unsigned, unsigned, unsigned, CUstream,
                               void **, void **) {
  ++RealCalls;
  RealGridX = GX;
  return CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
}

CUresult CUDAAPI otherStandInLaunch(CUfunction, unsigned, unsigned, unsigned,
                                    unsigned, unsigned, unsigned, unsigned,
                                    CUstream, void **, void **) {
  return CUDA_SUCCESS;
}

CUresult CUDAAPI standInLaunchEx(const CUlaunchConfig *Config, CUfunction,
                                 void **, void **) {
  ++RealCalls;
  RealGridX = Config->gridDimX;
  return CUDA_SUCCESS;
}

class LaunchInterposerTest : public ::testing::Test {
protected:
  void SetUp() override {
    Observed = Seen();
    RealCalls = 0;
    RealGridX = 0;
    setLaunchObserver(observe);
  }
  void TearDown() override { setLaunchObserver(nullptr); }
};

TEST_F(LaunchInterposerTest, WrapperCallsTheEntryPointBetweenEnterAndExit) {
  void *P = reinterpret_cast<void *>(&standInLaunch);
  ASSERT_TRUE(wrapEntryPoint("cuLaunchKernel",
                             CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &P,
                             /*ByRuntime=*/false));
  ASSERT_NE(P, reinterpret_cast<void *>(&standInLaunch));
  auto *Launch = reinterpret_cast<decltype(&standInLaunch)>(P);
  CUstream S = reinterpret_cast<CUstream>(0x1234);
  EXPECT_EQ(Launch(nullptr, 7, 1, 1, 32, 1, 1, 0, S, nullptr, nullptr),
            CUDA_ERROR_STREAM_CAPTURE_IMPLICIT);
  EXPECT_EQ(RealCalls, 1);
  EXPECT_EQ(RealGridX, 7u);
  EXPECT_EQ(Observed.Enters, 1);
  EXPECT_EQ(Observed.Exits, 1);
  EXPECT_TRUE(Observed.RealCalledInside);
  EXPECT_EQ(Observed.Result, CUDA_ERROR_STREAM_CAPTURE_IMPLICIT);
  EXPECT_EQ(Observed.Entry, LaunchEntry::Kernel);
  EXPECT_TRUE(Observed.PerThread);
  EXPECT_FALSE(Observed.ByRuntime);
  EXPECT_EQ(Observed.GridX, 7u);
  EXPECT_EQ(Observed.Stream, S);
}

TEST_F(LaunchInterposerTest, OneWrapperPerEntryPointAndRecipient) {
  void *A = reinterpret_cast<void *>(&otherStandInLaunch), *B = A, *C = A;
  ASSERT_TRUE(wrapEntryPoint(LaunchEntry::Kernel, false, &A, true));
  ASSERT_TRUE(wrapEntryPoint(LaunchEntry::Kernel, false, &B, true));
  EXPECT_EQ(A, B); // the runtime asked twice: one slot
  ASSERT_TRUE(wrapEntryPoint(LaunchEntry::Kernel, false, &C, false));
  EXPECT_NE(A, C); // a program's copy is told apart from the runtime's
  void *Again = A;
  EXPECT_FALSE(wrapEntryPoint(LaunchEntry::Kernel, false, &Again, true));
  EXPECT_EQ(Again, A); // a wrapper is never wrapped
  reinterpret_cast<decltype(&otherStandInLaunch)>(A)(
      nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr);
  EXPECT_TRUE(Observed.ByRuntime);
  EXPECT_FALSE(Observed.PerThread);
}

TEST_F(LaunchInterposerTest, KernelExParametersReachTheObserver) {
  void *P = reinterpret_cast<void *>(&standInLaunchEx);
  ASSERT_TRUE(wrapEntryPoint("cuLaunchKernelEx", CU_GET_PROC_ADDRESS_DEFAULT,
                             &P, true));
  CUlaunchConfig Config = {};
  Config.gridDimX = 3;
  reinterpret_cast<decltype(&standInLaunchEx)>(P)(&Config, nullptr, nullptr,
                                                  nullptr);
  EXPECT_EQ(RealGridX, 3u);
  EXPECT_EQ(Observed.Entry, LaunchEntry::KernelEx);
  EXPECT_EQ(Observed.GridX, 3u);
}

TEST_F(LaunchInterposerTest, OtherEntryPointsAreLeftAlone) {
  void *P = reinterpret_cast<void *>(&standInLaunch);
  EXPECT_FALSE(wrapEntryPoint("cuMemAlloc", 0, &P, true));
  EXPECT_FALSE(wrapEntryPoint("cuLaunchKernelExtra", 0, &P, true));
  EXPECT_EQ(P, reinterpret_cast<void *>(&standInLaunch));
  LaunchEntry E;
  EXPECT_TRUE(launchEntryOf("cuLaunchCooperativeKernel", E));
  EXPECT_EQ(E, LaunchEntry::Cooperative);
  EXPECT_FALSE(launchEntryOf(nullptr, E));
}

} // namespace
