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
  EXPECT_GT(C.size(), 150u);
  const ApiInfo *Malloc = C.lookup("cudaMalloc_v3020");
  ASSERT_NE(Malloc, nullptr);
  EXPECT_EQ(Malloc->Name, "cudaMalloc");
  EXPECT_EQ(Malloc->Hazard, "allocation");
  EXPECT_EQ(Malloc->behaviour(CaptureMode::Global), "illegal");
  EXPECT_EQ(Malloc->behaviour(CaptureMode::Relaxed), "eager");
  const ApiInfo *Drv = C.lookup("cuMemAlloc_v2");
  ASSERT_NE(Drv, nullptr);
  EXPECT_EQ(Drv->Family, "cuda-driver");
  const ApiInfo *Sync = C.lookup("cudaStreamSynchronize_ptsz");
  ASSERT_NE(Sync, nullptr);
  EXPECT_EQ(Sync->Hazard, "sync");
  ASSERT_NE(C.lookup("hipMalloc"), nullptr);
  EXPECT_EQ(C.lookup("cudaNoSuchCall"), nullptr);
}

TEST(ApiCatalog, WorkAndQueryCalls) {
  EXPECT_TRUE(issuesStreamWork("__cudaLaunchKernel_v13000"));
  EXPECT_TRUE(issuesStreamWork("cudaMemcpyAsync"));
  EXPECT_TRUE(issuesStreamWork("cuMemcpyDtoH_v2"));
  EXPECT_TRUE(issuesStreamWork("hipLaunchKernel"));
  EXPECT_TRUE(issuesStreamWork("cudaLaunchHostFunc"));
  EXPECT_FALSE(issuesStreamWork("cudaMalloc"));
  EXPECT_FALSE(issuesStreamWork("cudaStreamSynchronize"));
  EXPECT_TRUE(isQuery("cudaEventQuery"));
  EXPECT_TRUE(isQuery("cuStreamQuery_ptsz"));
  EXPECT_FALSE(isQuery("cudaStreamSynchronize"));
}

TEST(ApiCatalog, UserEntriesOverrideAndBadFilesAreNamed) {
  ApiCatalog C = ApiCatalog::builtin();
  std::string Error;
  ASSERT_TRUE(C.addJson(R"({"family": "mine", "apis": [
      {"name": "myAlloc", "hazard": "allocation",
       "modes": {"global": "illegal"}}]})",
                        "mine.json", Error))
      << Error;
  ASSERT_NE(C.lookup("myAlloc"), nullptr);
  EXPECT_EQ(C.lookup("myAlloc")->Family, "mine");

  EXPECT_FALSE(C.addJson("[1, 2", "broken.json", Error));
  EXPECT_NE(Error.find("broken.json"), std::string::npos);
  EXPECT_FALSE(
      C.addJson(R"({"apis": [{"hazard": "sync"}]})", "noname.json", Error));
  EXPECT_NE(Error.find("noname.json"), std::string::npos);
  EXPECT_FALSE(C.addPath("/no/such/catalog.json", Error));
  EXPECT_NE(Error.find("/no/such/catalog.json"), std::string::npos);
}
