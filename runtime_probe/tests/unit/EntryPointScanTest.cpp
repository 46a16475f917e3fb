//===- EntryPointScanTest.cpp - Redirecting entry points already fetched --===//
//
// A table of entry points in this program's writable data, as the CUDA
// runtime keeps its driver entry points: the scan replaces the copies of a
// known (stand-in) entry point by its wrapper, leaves other values alone,
// and calls through the table still reach the stand-in.
//
//===----------------------------------------------------------------------===//

#include "EntryPointScan.h"
#include "DriverInterposer.h"
#include <dlfcn.h>
#include <gtest/gtest.h>

using namespace capture_probe;

namespace {

int StandInCalls = 0;
CUresult CUDAAPI tableStandIn(CUfunction, unsigned, unsigned, unsigned,
                              unsigned, unsigned, unsigned, unsigned, CUstream,
                              void **, void **) {
  ++StandInCalls;
  return CUDA_SUCCESS;
}
int Unrelated = 0;
int ByRuntimeCalls = 0;
void countRuntimeLaunches(const WrappedLaunch &L, const CUresult *Result) {
  ByRuntimeCalls += !Result && L.ByRuntime;
}

} // namespace

// Not const and not static: in .data, where the runtime's table would be.
void *ScanTestTable[4] = {nullptr, reinterpret_cast<void *>(&tableStandIn),
                          &Unrelated, reinterpret_cast<void *>(&tableStandIn)};

namespace {

TEST(EntryPointScanTest, RedirectsEveryCopyInWritableData) {
  std::vector<KnownEntryPoint> Known = {
      {reinterpret_cast<uintptr_t>(&tableStandIn), LaunchEntry::Kernel, false}};
  // Left alone: this test's own module holds the scan's code.
  EntryPointScan Skipped = redirectEntryPoints(Known);
  EXPECT_TRUE(Skipped.Replaced.empty());
  EXPECT_EQ(ScanTestTable[1], reinterpret_cast<void *>(&tableStandIn));

  EntryPointScan Scan = redirectEntryPoints(Known, /*ScanProbeModule=*/true);
  EXPECT_EQ(Scan.EntryPoints, 1u);
  EXPECT_GT(Scan.BytesScanned, 0u);
  // The table's two copies; an instrumented build (sanitizer coverage's
  // table of function entries) holds the stand-in's address once more.
  ASSERT_GE(Scan.Replaced.size(), 2u);
  EXPECT_EQ(Scan.Replaced[0].rfind("(program)+0x", 0), 0u) << Scan.Replaced[0];
  EXPECT_NE(ScanTestTable[1], reinterpret_cast<void *>(&tableStandIn));
  EXPECT_EQ(ScanTestTable[1], ScanTestTable[3]);
  EXPECT_EQ(ScanTestTable[0], nullptr);
  EXPECT_EQ(ScanTestTable[2], &Unrelated);
  setLaunchObserver(countRuntimeLaunches);
  reinterpret_cast<decltype(&tableStandIn)>(ScanTestTable[1])(
      nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr);
  setLaunchObserver(nullptr);
  EXPECT_EQ(StandInCalls, 1);
  EXPECT_EQ(ByRuntimeCalls, 1); // a copy in the program: the static runtime's

  // Again: the wrappers are not copies of the entry point, and the real one
  // the wrapper keeps is not redirected to the wrapper itself.
  EntryPointScan Again = redirectEntryPoints(Known, true);
  EXPECT_TRUE(Again.Replaced.empty());
  reinterpret_cast<decltype(&tableStandIn)>(ScanTestTable[3])(
      nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr);
  EXPECT_EQ(StandInCalls, 2);
}

TEST(EntryPointScanTest, ALaterScanReadsOnlyModulesLoadedSince) {
  ScannedModules Scanned;
  // An address no data holds: inside a function.
  std::vector<KnownEntryPoint> Nothing = {
      {reinterpret_cast<uintptr_t>(&tableStandIn) + 1, LaunchEntry::Kernel,
       false}};
  EntryPointScan First = redirectEntryPoints(Nothing, false, &Scanned);
  EXPECT_GT(First.Modules, 0u);
  EntryPointScan Again = redirectEntryPoints(Nothing, false, &Scanned);
  EXPECT_EQ(Again.Modules, 0u);
  EXPECT_EQ(Again.BytesScanned, 0u);

  void *Module = dlopen(SCAN_TEST_MODULE, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(Module, nullptr) << dlerror();
  void *Fn = dlsym(Module, "scanTestSynchronize");
  auto **Table = static_cast<void **>(dlsym(Module, "ScanTestModuleTable"));
  ASSERT_TRUE(Fn && Table && Table[0] == Fn);
  std::vector<KnownEntryPoint> Known = {
      {reinterpret_cast<uintptr_t>(Fn), LaunchEntry::Kernel, false,
       CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize}};
  EntryPointScan Later = redirectEntryPoints(Known, false, &Scanned);
  EXPECT_EQ(Later.Modules, 1u);
  // The table's copy; an instrumented build (sanitizer coverage) holds the
  // function's address once more, in the same module.
  ASSERT_GE(Later.Replaced.size(), 1u);
  for (const std::string &Where : Later.Replaced)
    EXPECT_NE(Where.find("capture-probe-scan-test-module"), std::string::npos)
        << Where;
  ASSERT_NE(Table[0], Fn);
  // The wrapper calls the library's function (no observer installed).
  EXPECT_EQ(reinterpret_cast<CUresult(CUDAAPI *)(CUstream)>(Table[0])(
                reinterpret_cast<CUstream>(8)),
            CUDA_ERROR_NOT_READY);
}

} // namespace
