//===- SymbolizerTest.cpp - Real frames of this test, symbolized ----------===//

#include "capture_probe/Symbolizer.h"
#include "capture_probe/CallStack.h"
#include "capture_probe/InProcess.h"
#include <gtest/gtest.h>

using namespace capture_probe;

__attribute__((noinline)) static std::vector<std::string> framesHere() {
  std::vector<std::string> F = captureFrames();
  asm volatile("" ::: "memory"); // keep the call a call
  return F;
}

TEST(Symbolizer, SplitsRawFrames) {
  std::string Module;
  uint64_t Offset = 0;
  ASSERT_TRUE(splitRawFrame("/usr/lib/libx.so+0x1f0", Module, Offset));
  EXPECT_EQ(Module, "/usr/lib/libx.so");
  EXPECT_EQ(Offset, 0x1f0u);
  EXPECT_FALSE(splitRawFrame("nothing", Module, Offset));
  EXPECT_FALSE(splitRawFrame("/lib+0x", Module, Offset));
  EXPECT_FALSE(splitRawFrame("/lib+0xzz", Module, Offset));
}

TEST(Symbolizer, FindsThisFunctionFileAndLine) {
  std::vector<std::string> Frames = framesHere();
  ASSERT_FALSE(Frames.empty());
  ProbeReport R;
  CaptureRecord C;
  C.Begin.Frames = Frames;
  R.Captures.push_back(C);
  Symbolizer().symbolize(R);
  const CallRecord &B = R.Captures[0].Begin;
  ASSERT_TRUE(B.Site.has_value());
  EXPECT_NE(B.Site->Function.find("framesHere"), std::string::npos)
      << B.Site->Function << " " << B.Site->Raw;
  EXPECT_NE(B.Site->File.find("SymbolizerTest.cpp"), std::string::npos);
  EXPECT_GT(B.Site->Line, 0u);
  // The test body calls framesHere(): the next user frame.
  ASSERT_GE(B.Stack.size(), 2u);
  EXPECT_NE(B.Stack[1].Function.find("FindsThisFunctionFileAndLine"),
            std::string::npos)
      << B.Stack[1].Function;
}

TEST(Symbolizer, RuntimeFramesAreNotUserCode) {
  SourceFrame F;
  F.Module = "/usr/lib/x86_64-linux-gnu/libcuda.so.1";
  EXPECT_TRUE(Symbolizer::isRuntimeFrame(F));
  F.Module = "/app/prog";
  F.Function = "cudart::cudaApiMalloc(void**, unsigned long)";
  EXPECT_TRUE(Symbolizer::isRuntimeFrame(F));
  F.Function = "cuMemAlloc_v2";
  EXPECT_TRUE(Symbolizer::isRuntimeFrame(F));
  F.Function = "onExit";
  F.File = "/src/capture-lint/runtime_probe/cuda/CuptiBackend.cpp";
  F.Line = 948;
  EXPECT_TRUE(Symbolizer::isRuntimeFrame(F)) << "the probe's own, in-process";
  F.File.clear();
  F.Line = 0;
  F.Function = "Decoder::step()";
  EXPECT_FALSE(Symbolizer::isRuntimeFrame(F));
  F.Function = "cube_root(float)";
  EXPECT_FALSE(Symbolizer::isRuntimeFrame(F));
  F.Function = "__invoke_impl<void, main::<lambda()> >";
  F.File = "/usr/include/c++/13/bits/invoke.h";
  EXPECT_TRUE(Symbolizer::isRuntimeFrame(F));
  F.Function = "__device_stub__Z4bumpPfi(float*, int)";
  F.File = "/usr/local/cuda/include/crt/device_functions.h";
  EXPECT_TRUE(Symbolizer::isRuntimeFrame(F));
}

TEST(Symbolizer, ALineInTheUsersFileIsUserCodeWhateverItsFunctionName) {
  // A lambda run by std::thread, inlined into the runner: addr2line names
  // the runner, at the lambda's line.
  SourceFrame F;
  F.Module = "/app/prog";
  F.Function = "std::thread::_State_impl<std::thread::_Invoker<std::tuple<"
               "twoThread()::{lambda()#1}> > >::_M_run()";
  F.File = "/src/app.cu";
  F.Line = 177;
  EXPECT_FALSE(Symbolizer::isRuntimeFrame(F));
  F.File = "/usr/include/c++/12/bits/std_thread.h";
  EXPECT_TRUE(Symbolizer::isRuntimeFrame(F));
}

TEST(Symbolizer, CallsInsideCudaLibrariesAreReportedAtTheUsersCall) {
  SourceFrame F;
  F.Function = "cublasLtMatmul"; // a wrong symbol, in the library
  for (const char *M : {"/usr/local/cuda/lib64/libcublasLt.so.13",
                        "/usr/local/cuda/lib64/libcublas.so.13",
                        "/usr/local/cuda/lib64/libcusparse.so.12",
                        "/usr/lib/x86_64-linux-gnu/libnccl.so.2"}) {
    F.Module = M;
    EXPECT_TRUE(Symbolizer::isRuntimeFrame(F)) << M;
  }
}

TEST(Symbolizer, NvccIntermediateFilesNameTheirSource) {
  EXPECT_EQ(
      sourceOfIntermediate("tmpxft_00007c65_00000000-6_lifecycle.cudafe1.cpp"),
      "lifecycle.cu");
  EXPECT_EQ(
      sourceOfIntermediate("/tmp/tmpxft_0001_00000000-6_my_app.cudafe1.cpp"),
      "my_app.cu");
  EXPECT_EQ(sourceOfIntermediate("/src/app.cu"), "/src/app.cu");
}

TEST(Symbolizer, PythonFramesBecomeSourceFrames) {
  auto Frames = pythonFrames({"/work/model.py:42:forward", "bad"});
  ASSERT_EQ(Frames.size(), 1u);
  EXPECT_EQ(Frames[0].File, "/work/model.py");
  EXPECT_EQ(Frames[0].Line, 42u);
  EXPECT_EQ(Frames[0].Function, "forward");
}

TEST(Symbolizer, MissingModulesKeepTheirRawFrame) {
  Symbolizer S;
  S.resolve({"/no/such/module.so+0x10", "garbage"});
  SourceFrame F = S.frame("/no/such/module.so+0x10");
  EXPECT_EQ(F.Function, "??");
  EXPECT_EQ(F.Module, "/no/such/module.so");
  EXPECT_EQ(S.frame("garbage").Raw, "garbage");
}
