//===- EntryPointScanTest.cpp - Redirecting entry points already fetched --===//
//
// A table of entry points in this program's writable data, as the CUDA
// runtime keeps its driver entry points: the scan replaces the copies of a
// known (stand-in) entry point by its wrapper, leaves other values alone,
// and calls through the table still reach the stand-in.
//
//===----------------------------------------------------------------------===//

#include "EntryPointScan.h"
#include "DlsymInterposer.h"
#include "DriverInterposer.h"
#include <algorithm>
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

// Lookups the test's observer wraps (as the backend does with its list).
std::vector<KnownEntryPoint> &LookupEntries = *new std::vector<KnownEntryPoint>;
int QueryCalls = 0;
void countQueries(const WrappedCall &C, const CUresult *Result) {
  QueryCalls += !Result && C.Id == CUPTI_DRIVER_TRACE_CBID_cuEventQuery;
}

TEST(EntryPointScanTest, RedirectsImportsNotYetBoundAndLookupsInAHandle) {
  // Everything loaded so far is left alone: only the new modules are read.
  ScannedModules Scanned;
  std::vector<KnownEntryPoint> Nothing = {
      {reinterpret_cast<uintptr_t>(&tableStandIn) + 1, LaunchEntry::Kernel,
       false}};
  redirectEntryPoints(Nothing, false, &Scanned);
  void *Module = dlopen(IMPORT_TEST_MODULE, RTLD_LAZY | RTLD_LOCAL);
  ASSERT_NE(Module, nullptr) << dlerror();
  void *Query = dlsym(Module, "cuEventQuery"); // the stand-in driver's
  using QueryFn = CUresult (*)(CUevent);
  using LookupFn = void *(*)(void *, const char *);
  using RelativeLookupFn = void *(*)(const char *);
  auto CallQuery = reinterpret_cast<QueryFn>(dlsym(Module, "importTestQuery"));
  auto Lookup = reinterpret_cast<LookupFn>(dlsym(Module, "importTestLookup"));
  auto Versioned =
      reinterpret_cast<LookupFn>(dlsym(Module, "importTestLookupVersioned"));
  auto Next =
      reinterpret_cast<RelativeLookupFn>(dlsym(Module, "importTestLookupNext"));
  auto Default = reinterpret_cast<RelativeLookupFn>(
      dlsym(Module, "importTestLookupDefault"));
  ASSERT_TRUE(Query && CallQuery && Lookup && Versioned && Next && Default);

  LookupEntries = {{reinterpret_cast<uintptr_t>(Query), LaunchEntry::Kernel,
                    false, CUPTI_DRIVER_TRACE_CBID_cuEventQuery,
                    "cuEventQuery"}};
  setLookupObserver([](void **Result, bool ByRuntime) {
    wrapKnownEntryPoint(LookupEntries, Result, ByRuntime);
  });
  EntryPointScan Scan =
      redirectEntryPoints(LookupEntries, false, &Scanned, /*Imports=*/true);
  EXPECT_EQ(Scan.Modules, 2u); // the module and the stand-in driver
  auto Has = [&](const char *Symbol) {
    return std::any_of(Scan.Replaced.begin(), Scan.Replaced.end(),
                       [&](const std::string &W) {
                         return W.find("capture-probe-import-test-module") !=
                                    std::string::npos &&
                                W.find(Symbol) != std::string::npos;
                       });
  };
  // The import's slot, not yet bound (no copy of the address to find).
  EXPECT_TRUE(Has("(cuEventQuery)"));
  EXPECT_TRUE(Has("(dlsym)"));
  EXPECT_TRUE(Has("(dlvsym)"));

  // The module's call reaches the wrapper, then the stand-in.
  setCallObserver(countQueries);
  EXPECT_EQ(CallQuery(reinterpret_cast<CUevent>(8)), CUDA_ERROR_NOT_READY);
  EXPECT_EQ(QueryCalls, 1);

  // A lookup in a handle hands out the wrapper; others are left as found.
  unsigned long long Before = wrappedLookups();
  void *Looked = Lookup(Module, "cuEventQuery");
  ASSERT_NE(Looked, nullptr);
  EXPECT_NE(Looked, Query);
  EXPECT_EQ(reinterpret_cast<QueryFn>(Looked)(nullptr), CUDA_SUCCESS);
  EXPECT_EQ(QueryCalls, 2);
  EXPECT_EQ(Lookup(Module, "importTestShadowed"),
            dlsym(Module, "importTestShadowed"));
  EXPECT_EQ(Versioned(Module, "cuEventQuery"), Looked);
  EXPECT_EQ(wrappedLookups(), Before + 3);
  setCallObserver(nullptr);

  // Lookups relative to the caller still see the module as the caller:
  // RTLD_NEXT finds the stand-in driver's definition, RTLD_DEFAULT the
  // module's own (neither is visible from this program).
  void *NextFound = Next("importTestShadowed");
  void *DefaultFound = Default("importTestShadowed");
  ASSERT_TRUE(NextFound && DefaultFound);
  EXPECT_EQ(reinterpret_cast<int (*)()>(NextFound)(), 2);
  EXPECT_EQ(reinterpret_cast<int (*)()>(DefaultFound)(), 1);
  EXPECT_EQ(dlsym(RTLD_DEFAULT, "importTestShadowed"), nullptr);
  EXPECT_EQ(wrappedLookups(), Before + 3);
  setLookupObserver(nullptr);
}

} // namespace
