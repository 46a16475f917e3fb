//===- DriverInterposerTest.cpp - Every driver function's wrapper ---------===//
//
// Stand-ins for driver functions handed to wrapDriverFunction: the wrapper
// calls the stand-in with the same arguments between the observer's entry
// and exit, passes on its result, and gives the observer CUPTI's id, name
// and parameter struct; a function without parameters too; the scan finds a
// copy of a driver function in a table and redirects it.
//
//===----------------------------------------------------------------------===//

#include "DriverInterposer.h"
#include "EntryPointScan.h"
#include <algorithm>
#include <cstring>
#include <gtest/gtest.h>

using namespace capture_probe;

namespace {

struct Seen {
  int Enters = 0, Exits = 0;
  CUpti_CallbackId Id = 0;
  std::string Name;
  bool ByRuntime = false;
  CUstream Stream = nullptr;
  CUstreamCaptureMode Mode = CU_STREAM_CAPTURE_MODE_GLOBAL;
  bool NoParams = false;
  CUresult Result = CUDA_SUCCESS;
  bool RealCalledInside = false;
};
Seen Observed;
int RealCalls = 0;

void observe(const WrappedCall &C, const CUresult *Result) {
  if (Result) {
    ++Observed.Exits;
    Observed.Result = *Result;
    return;
  }
  ++Observed.Enters;
  Observed.RealCalledInside = RealCalls == 0;
  Observed.Id = C.Id;
  Observed.Name = C.Name;
  Observed.ByRuntime = C.ByRuntime;
  Observed.NoParams = C.Params == nullptr;
  if (C.Id == CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2) {
    auto *P = static_cast<const cuStreamBeginCapture_v2_params *>(C.Params);
    Observed.Stream = P->hStream;
    Observed.Mode = P->mode;
  }
}

CUstream RealStream = nullptr;
CUstreamCaptureMode RealMode = CU_STREAM_CAPTURE_MODE_GLOBAL;
CUresult CUDAAPI standInBegin(CUstream S, CUstreamCaptureMode M) {
  ++RealCalls;
  RealStream = S;
  RealMode = M;
  return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
}

CUresult CUDAAPI standInSynchronize() {
  ++RealCalls;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI standInQuery(CUstream) { return CUDA_ERROR_NOT_READY; }

TEST(DriverInterposerTest, ListsTheToolkitsFunctionsButLaunches) {
  const auto &All = wrappableDriverFunctions();
  EXPECT_GT(All.size(), 400u);
  auto Has = [&](const char *Name) {
    return std::any_of(All.begin(), All.end(), [&](const DriverFunction &F) {
      return std::strcmp(F.Name, Name) == 0;
    });
  };
  EXPECT_TRUE(Has("cuStreamBeginCapture_v2"));
  EXPECT_TRUE(Has("cuGraphInstantiateWithFlags"));
  EXPECT_TRUE(Has("cuCtxSynchronize")); // no parameters
  EXPECT_FALSE(Has("cuLaunchKernel"));  // LaunchInterposer's
}

TEST(DriverInterposerTest, WrapperCallsTheFunctionBetweenEntryAndExit) {
  Observed = {};
  RealCalls = 0;
  void *P = reinterpret_cast<void *>(&standInBegin);
  ASSERT_TRUE(wrapDriverFunction(
      CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2, &P, /*ByRuntime=*/true));
  ASSERT_NE(P, reinterpret_cast<void *>(&standInBegin));
  setCallObserver(observe);
  CUstream S = reinterpret_cast<CUstream>(0x1234);
  CUresult R = reinterpret_cast<decltype(&standInBegin)>(P)(
      S, CU_STREAM_CAPTURE_MODE_RELAXED);
  setCallObserver(nullptr);
  EXPECT_EQ(R, CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
  EXPECT_EQ(RealCalls, 1);
  EXPECT_EQ(RealStream, S);
  EXPECT_EQ(RealMode, CU_STREAM_CAPTURE_MODE_RELAXED);
  EXPECT_EQ(Observed.Enters, 1);
  EXPECT_EQ(Observed.Exits, 1);
  EXPECT_TRUE(Observed.RealCalledInside);
  EXPECT_EQ(Observed.Result, CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
  EXPECT_EQ(Observed.Id, CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2);
  EXPECT_EQ(Observed.Name, "cuStreamBeginCapture_v2");
  EXPECT_TRUE(Observed.ByRuntime);
  EXPECT_EQ(Observed.Stream, S);
  EXPECT_EQ(Observed.Mode, CU_STREAM_CAPTURE_MODE_RELAXED);
  EXPECT_GE(wrappedDriverCalls(true), 1u);

  // A wrapper is not wrapped again; the other copies' wrapper calls the
  // same function; another address for the same function is refused.
  void *Again = P;
  EXPECT_FALSE(wrapDriverFunction(
      CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2, &Again, true));
  void *Program = reinterpret_cast<void *>(&standInBegin);
  ASSERT_TRUE(wrapDriverFunction(
      CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2, &Program, false));
  EXPECT_NE(Program, P);
  Observed = {};
  setCallObserver(observe);
  reinterpret_cast<decltype(&standInBegin)>(Program)(
      S, CU_STREAM_CAPTURE_MODE_GLOBAL);
  setCallObserver(nullptr);
  EXPECT_FALSE(Observed.ByRuntime);
  EXPECT_EQ(RealCalls, 2);
  void *Other = reinterpret_cast<void *>(&standInQuery);
  EXPECT_FALSE(wrapDriverFunction(
      CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2, &Other, true));
  EXPECT_EQ(Other, reinterpret_cast<void *>(&standInQuery));
}

TEST(DriverInterposerTest, FunctionWithoutParameters) {
  Observed = {};
  RealCalls = 0;
  void *P = reinterpret_cast<void *>(&standInSynchronize);
  ASSERT_TRUE(
      wrapDriverFunction(CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize, &P, false));
  setCallObserver(observe);
  EXPECT_EQ(reinterpret_cast<decltype(&standInSynchronize)>(P)(), CUDA_SUCCESS);
  setCallObserver(nullptr);
  EXPECT_EQ(RealCalls, 1);
  EXPECT_EQ(Observed.Name, "cuCtxSynchronize");
  EXPECT_TRUE(Observed.NoParams);
  EXPECT_EQ(Observed.Exits, 1);
}

TEST(DriverInterposerTest, UnknownIdIsLeftAlone) {
  void *P = reinterpret_cast<void *>(&standInQuery);
  EXPECT_FALSE(wrapDriverFunction(CUPTI_DRIVER_TRACE_CBID_INVALID, &P, true));
  EXPECT_FALSE(
      wrapDriverFunction(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &P, true));
  EXPECT_EQ(P, reinterpret_cast<void *>(&standInQuery));
}

} // namespace

// In .data, where the runtime's table would be.
void *DriverScanTestTable[2] = {reinterpret_cast<void *>(&standInQuery),
                                nullptr};

namespace {

TEST(DriverInterposerTest, ScanRedirectsACopyOfADriverFunction) {
  std::vector<KnownEntryPoint> Known = {
      {reinterpret_cast<uintptr_t>(&standInQuery), LaunchEntry::Kernel, false,
       CUPTI_DRIVER_TRACE_CBID_cuStreamQuery}};
  EntryPointScan Scan = redirectEntryPoints(Known, /*ScanProbeModule=*/true);
  ASSERT_GE(Scan.Replaced.size(), 1u);
  ASSERT_NE(DriverScanTestTable[0], reinterpret_cast<void *>(&standInQuery));
  Observed = {};
  setCallObserver(observe);
  CUresult R = reinterpret_cast<decltype(&standInQuery)>(
      DriverScanTestTable[0])(nullptr);
  setCallObserver(nullptr);
  EXPECT_EQ(R, CUDA_ERROR_NOT_READY);
  EXPECT_EQ(Observed.Name, "cuStreamQuery");
  EXPECT_TRUE(Observed.ByRuntime); // a copy in the program
  // Found again through the sorted list, as at a cuGetProcAddress exit.
  void *Fetched = reinterpret_cast<void *>(&standInQuery);
  EXPECT_TRUE(wrapKnownEntryPoint(Known, &Fetched, false));
  EXPECT_NE(Fetched, reinterpret_cast<void *>(&standInQuery));
}

} // namespace
