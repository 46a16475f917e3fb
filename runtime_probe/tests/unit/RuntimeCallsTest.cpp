//===- RuntimeCallsTest.cpp - Naming the runtime call of a driver call ----===//
//
// Symbolized stacks as the report sees them for a driver call the CUDA
// runtime made: the shared runtime's and the static runtime's frames, the
// inline wrappers of cuda_runtime.h, and the program's own functions named
// like runtime calls.
//
//===----------------------------------------------------------------------===//

#include "capture_probe/RuntimeCalls.h"
#include <gtest/gtest.h>

using namespace capture_probe;

namespace {

SourceFrame frame(std::string Function, std::string Module,
                  std::string File = "", unsigned Line = 0) {
  SourceFrame F;
  F.Function = std::move(Function);
  F.Module = std::move(Module);
  F.File = std::move(File);
  F.Line = Line;
  return F;
}

TEST(RuntimeCalls, RuntimeApiNames) {
  EXPECT_EQ(runtimeApiName("cudaMalloc"), "cudaMalloc");
  EXPECT_EQ(runtimeApiName("cudaMalloc<float>(float**, unsigned long)"),
            "cudaMalloc");
  EXPECT_EQ(runtimeApiName("cudaStreamSynchronize_ptsz"),
            "cudaStreamSynchronize_ptsz");
  EXPECT_FALSE(runtimeApiName("cudart::cudaApiMalloc(void**, unsigned long)"));
  EXPECT_FALSE(runtimeApiName("__cudaRegisterFunction"));
  EXPECT_FALSE(runtimeApiName("cuda"));
  EXPECT_FALSE(runtimeApiName("cudaapi"));
  EXPECT_FALSE(runtimeApiName("??"));
}

TEST(RuntimeCalls, SharedRuntimeThroughTheHeadersTemplate) {
  const char *Rt = "/usr/local/cuda/lib64/libcudart.so.13";
  std::vector<SourceFrame> Stack = {
      frame("cudart::cudaApiMalloc(void**, unsigned long)", Rt),
      frame("cudaMalloc", Rt),
      frame("cudaMalloc<float>(float**, unsigned long)", "/bin/app",
            "/usr/local/cuda/include/cuda_runtime.h", 180),
      frame("main", "/bin/app", "/src/app.cu", 12),
      frame("__libc_start_main", "/lib/libc.so.6")};
  EXPECT_EQ(runtimeCallOf(Stack), "cudaMalloc");
}

TEST(RuntimeCalls, StaticRuntimeInTheProgram) {
  std::vector<SourceFrame> Stack = {
      frame("cudart::cudaApiStreamSynchronize(CUstream_st*)", "/bin/app"),
      frame("cudaStreamSynchronize", "/bin/app"),
      frame("step(CUstream_st*)", "/bin/app", "/src/app.cu", 30)};
  EXPECT_EQ(runtimeCallOf(Stack), "cudaStreamSynchronize");
}

TEST(RuntimeCalls, TheProgramsOwnCudaNamedFunctionsAreNotTheCall) {
  std::vector<SourceFrame> Stack = {
      frame("cudart::globalState::initialize()", "/bin/app"),
      frame("cudaCheckLast(int)", "/bin/app", "/src/check.h", 8),
      frame("main", "/bin/app", "/src/app.cu", 12)};
  EXPECT_FALSE(runtimeCallOf(Stack));
  EXPECT_FALSE(runtimeCallOf({}));
}

TEST(RuntimeCalls, UnresolvedStackLeavesTheEventAlone) {
  Symbolizer S;
  Event E;
  E.Api = "cuMemAlloc_v2";
  E.ByRuntime = true;
  E.Frames = {"/nonexistent/app+0x10"};
  EXPECT_FALSE(nameRuntimeCall(S, E));
  EXPECT_EQ(E.Api, "cuMemAlloc_v2");
  EXPECT_TRUE(E.DriverApi.empty());
}

} // namespace
