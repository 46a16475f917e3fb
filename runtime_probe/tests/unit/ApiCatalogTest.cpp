//===- ApiCatalogTest.cpp - Reading the shared catalog in the probe -------===//

#include "capture_probe/ApiCatalog.h"
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>

using namespace capture_probe;

TEST(ApiCatalog, BaseNamesDropVersionAndStreamSuffixes) {
  EXPECT_EQ(baseApiName("cuMemAlloc_v2"), "cuMemAlloc");
  EXPECT_EQ(baseApiName("cudaMalloc_v3020"), "cudaMalloc");
  EXPECT_EQ(baseApiName("cudaMemcpyAsync_ptsz_v7000"), "cudaMemcpyAsync");
  EXPECT_EQ(baseApiName("cuStreamBeginCapture_v2_ptsz"),
            "cuStreamBeginCapture");
  EXPECT_EQ(baseApiName("cudaMemcpy"), "cudaMemcpy");
  EXPECT_EQ(baseApiName("_v2"), "_v2");
}

TEST(ApiCatalog, BuiltinClassifiesRuntimeDriverAndHipNames) {
  ApiCatalog C = ApiCatalog::builtin();
  EXPECT_GT(C.catalog().apis().size(), 150u);
  const ApiEntry *Malloc = C.lookup("cudaMalloc_v3020");
  ASSERT_NE(Malloc, nullptr);
  EXPECT_EQ(Malloc->Name, "cudaMalloc");
  EXPECT_EQ(Malloc->Class, capture_lint::Hazard::Allocation);
  EXPECT_EQ(Malloc->behaviourIn(CaptureMode::Global),
            capture_lint::Behaviour::Illegal);
  EXPECT_EQ(Malloc->behaviourIn(CaptureMode::Relaxed),
            capture_lint::Behaviour::Eager);
  const ApiEntry *Drv = C.lookup("cuMemAlloc_v2");
  ASSERT_NE(Drv, nullptr);
  EXPECT_EQ(Drv->Family, "cuda-driver");
  const ApiEntry *Sync = C.lookup("cudaStreamSynchronize_ptsz");
  ASSERT_NE(Sync, nullptr);
  EXPECT_EQ(Sync->Class, capture_lint::Hazard::Sync);
  ASSERT_NE(C.lookup("hipMalloc"), nullptr);
  EXPECT_EQ(C.lookup("cudaNoSuchCall"), nullptr);
}

TEST(ApiCatalog, WorkAndQueryCalls) {
  ApiCatalog C = ApiCatalog::builtin();
  EXPECT_TRUE(C.issuesStreamWork("__cudaLaunchKernel_v13000"));
  EXPECT_TRUE(C.issuesStreamWork("cudaMemcpyAsync"));
  EXPECT_TRUE(C.issuesStreamWork("cuMemcpyDtoH_v2"));
  EXPECT_TRUE(C.issuesStreamWork("hipLaunchKernel"));
  EXPECT_TRUE(C.issuesStreamWork("cudaLaunchHostFunc"));
  EXPECT_FALSE(C.issuesStreamWork("cudaMalloc"));
  EXPECT_FALSE(C.issuesStreamWork("cudaStreamSynchronize"));
  EXPECT_TRUE(C.isQuery("cudaEventQuery"));
  EXPECT_TRUE(C.isQuery("cuStreamQuery_ptsz"));
  EXPECT_FALSE(C.isQuery("cudaStreamSynchronize"));
  EXPECT_FALSE(C.issuesStreamWork("cu")); // shorter than every prefix
  // A project's catalog adds its own (a vendor launch wrapper).
  std::string Error;
  ASSERT_TRUE(
      C.addJson(R"({"name_lists": {"stream_work_prefixes": ["vendorLaunch"]}})",
                "mine.json", Error))
      << Error;
  EXPECT_TRUE(C.issuesStreamWork("vendorLaunchKernel_v2"));
  EXPECT_TRUE(C.issuesStreamWork("cudaLaunchKernel")); // the built-in ones stay
}

TEST(ApiCatalog, UserEntriesOverrideAndBadFilesAreNamed) {
  ApiCatalog C = ApiCatalog::builtin();
  std::string Error;
  ASSERT_TRUE(C.addJson(R"({"family": "mine", "apis": [
      {"name": "myAlloc", "hazard": "allocation",
       "modes": {"global": "illegal", "thread_local": "illegal",
                 "relaxed": "eager"},
       "message": "allocates", "fix": "allocate before capture",
       "source": "mine"}]})",
                        "mine.json", Error))
      << Error;
  ASSERT_NE(C.lookup("myAlloc"), nullptr);
  EXPECT_EQ(C.lookup("myAlloc")->Family, "mine");

  EXPECT_FALSE(C.addJson("[1, 2", "broken.json", Error));
  EXPECT_NE(Error.find("broken.json"), std::string::npos);
  EXPECT_FALSE(
      C.addJson(R"({"apis": [{"hazard": "sync"}]})", "noname.json", Error));
  EXPECT_NE(Error.find("noname.json"), std::string::npos);
  // The reader is capture-lint's: what it rejects, the probe rejects, with
  // the same words (a typo must not silently drop knowledge).
  EXPECT_FALSE(C.addJson(R"({"apis": [{"name": "f", "hazard": "sync",
      "modes": {"global": "illegal", "thread_local": "illegal",
                "relaxed": "illegal"}, "message": "m", "fix": "f", "eror": "x", "source": "s"}]})",
                         "typo.json", Error));
  EXPECT_NE(Error.find("typo.json"), std::string::npos);
  EXPECT_NE(Error.find("unknown field"), std::string::npos) << Error;
  EXPECT_FALSE(C.addPath("/no/such/catalog.json", Error));
  EXPECT_NE(Error.find("/no/such/catalog.json"), std::string::npos);
}
