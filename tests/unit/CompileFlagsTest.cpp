//===- CompileFlagsTest.cpp - nvcc/hipcc command translation --------------===//

#include "CompileFlags.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace capture_lint;
using ::testing::Contains;
using ::testing::Not;

namespace {

ToolPaths paths() {
  ToolPaths P;
  P.ResourceDir = "/res";
  P.CompatDir = "/compat";
  P.CudaPath = "/cuda";
  return P;
}

std::vector<std::string> split(const std::string &S) {
  std::vector<std::string> Out;
  std::string Cur;
  for (char C : S) {
    if (C == ' ') {
      if (!Cur.empty())
        Out.push_back(Cur);
      Cur.clear();
    } else {
      Cur += C;
    }
  }
  if (!Cur.empty())
    Out.push_back(Cur);
  return Out;
}

TEST(CompileFlags, CMakeNvccCommand) {
  auto T = translateCommand(
      split("/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler "
            "-DNDEBUG -I/src/include "
            "--generate-code=arch=compute_80,code=[compute_80,sm_80] "
            "--expt-relaxed-constexpr --extended-lambda -std=c++17 -x cu "
            "-rdc=true -Xcompiler=-fPIC,-Wall -c /src/a.cu -o a.o"),
      "/src/a.cu", "/build", paths());
  auto &A = T.Args;
  EXPECT_EQ(A.front(), "clang++");
  EXPECT_THAT(A, Contains("-DNDEBUG"));
  EXPECT_THAT(A, Contains("-I/src/include"));
  EXPECT_THAT(A, Contains("-std=c++17"));
  EXPECT_THAT(A, Contains("cuda"));
  EXPECT_THAT(A, Contains("-fPIC"));
  EXPECT_THAT(A, Contains("-Wall"));
  EXPECT_THAT(A, Contains("--cuda-host-only"));
  EXPECT_THAT(A, Contains("-Wno-unknown-cuda-version"));
  EXPECT_THAT(A, Contains("-resource-dir=/res"));
  EXPECT_THAT(A, Contains("/compat"));
  EXPECT_THAT(A, Contains("/src/a.cu"));
  for (const char *Gone :
       {"-forward-unknown-to-host-compiler", "--expt-relaxed-constexpr",
        "--extended-lambda", "-rdc=true", "cu", "-Xcompiler=-fPIC,-Wall"})
    EXPECT_THAT(A, Not(Contains(Gone))) << Gone;
  for (const std::string &Arg : A)
    EXPECT_EQ(Arg.find("generate-code"), std::string::npos);
  EXPECT_TRUE(T.Warnings.empty());
}

TEST(CompileFlags, SeparateValuesAndSpellings) {
  auto T = translateCommand(
      split("nvcc -gencode arch=compute_90,code=sm_90 -arch sm_90 -ccbin g++ "
            "--std c++20 -Xcompiler -O3 --default-stream per-thread "
            "-Xcudafe --diag_suppress=177 --include-path inc "
            "--use_fast_math -lineinfo -c k.cu"),
      "k.cu", "/b", paths());
  auto &A = T.Args;
  EXPECT_THAT(A, Contains("-std=c++20"));
  EXPECT_THAT(A, Contains("-O3"));
  EXPECT_THAT(A, Contains("-fgpu-default-stream=per-thread"));
  EXPECT_THAT(A, Contains("-Iinc"));
  for (const char *Gone :
       {"-gencode", "arch=compute_90,code=sm_90", "-arch", "sm_90", "-ccbin",
        "g++", "-Xcudafe", "--diag_suppress=177", "--use_fast_math",
        "-lineinfo"})
    EXPECT_THAT(A, Not(Contains(Gone))) << Gone;
}

TEST(CompileFlags, OptionsFileIsExpanded) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("cl-flags", Dir));
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(std::string(Dir) + "/includes_CUDA.rsp", EC);
    OS << "-I/opt/dep/include \"-I/path with space\" --expt-relaxed-constexpr";
  }
  auto T =
      translateCommand(split("nvcc --options-file includes_CUDA.rsp -c a.cu"),
                       "a.cu", std::string(Dir), paths());
  EXPECT_THAT(T.Args, Contains("-I/opt/dep/include"));
  EXPECT_THAT(T.Args, Contains("-I/path with space"));
  EXPECT_THAT(T.Args, Not(Contains("--expt-relaxed-constexpr")));
  auto Missing = translateCommand(split("nvcc --options-file nope.rsp a.cu"),
                                  "a.cu", std::string(Dir), paths());
  ASSERT_EQ(Missing.Warnings.size(), 1u);
  EXPECT_NE(Missing.Warnings[0].find("nope.rsp"), std::string::npos);
  llvm::sys::fs::remove_directories(Dir);
}

TEST(CompileFlags, UnknownNvccFlagIsDroppedWithAWarning) {
  auto T = translateCommand(split("nvcc --frobnicate-kernels -c a.cu"), "a.cu",
                            "/b", paths());
  EXPECT_THAT(T.Args, Not(Contains("--frobnicate-kernels")));
  ASSERT_EQ(T.Warnings.size(), 1u);
  EXPECT_NE(T.Warnings[0].find("'--frobnicate-kernels'"), std::string::npos);
}

TEST(CompileFlags, HipccCommand) {
  auto T = translateCommand(
      split("/opt/rocm/bin/hipcc --offload-arch=gfx90a -O2 -c b.hip"), "b.hip",
      "/b", paths());
  EXPECT_THAT(T.Args, Contains("--offload-host-only"));
  EXPECT_THAT(T.Args, Contains("--offload-arch=gfx90a"));
  EXPECT_THAT(T.Args, Not(Contains("--cuda-host-only")));
}

TEST(CompileFlags, AddedOptionsGoBeforeTheEndOfOptions) {
  // A header's command interpolated from a source's ends `-- FILE`: what
  // capture-lint adds must not become input files after the `--`.
  auto T = translateCommand(split("clang++ -x cuda -Iinc -c -- /s/step.cuh"),
                            "/s/step.cuh", "/b", paths());
  auto End = std::find(T.Args.begin(), T.Args.end(), "--");
  ASSERT_NE(End, T.Args.end());
  EXPECT_EQ(std::next(End), std::prev(T.Args.end()));
  EXPECT_EQ(T.Args.back(), "/s/step.cuh");
  EXPECT_NE(std::find(T.Args.begin(), End, "--cuda-host-only"), End);
}

TEST(CompileFlags, HostCompilerCommandStaysCxx) {
  auto T = translateCommand(split("/usr/bin/g++ -O2 -std=gnu++17 -c m.cpp"),
                            "m.cpp", "/b", paths());
  EXPECT_THAT(T.Args, Contains("-std=gnu++17"));
  EXPECT_THAT(T.Args, Not(Contains("--cuda-host-only")));
}

TEST(CompileFlags, ResponseFilesAreExpandedForEveryCompiler) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("rsp", Dir));
  {
    std::error_code EC;
    llvm::raw_fd_ostream Outer(std::string(Dir) + "/includes_CXX.rsp", EC);
    Outer << "-I/opt/dep/include @more.rsp";
    llvm::raw_fd_ostream Inner(std::string(Dir) + "/more.rsp", EC);
    Inner << "\"-I/path with space\"";
  }
  auto T = translateCommand(split("/usr/bin/c++ @includes_CXX.rsp -c m.cpp"),
                            "m.cpp", std::string(Dir), paths());
  EXPECT_THAT(T.Args, Contains("-I/opt/dep/include"));
  EXPECT_THAT(T.Args, Contains("-I/path with space"));
  EXPECT_THAT(T.Args, Not(Contains("@includes_CXX.rsp")));
  EXPECT_TRUE(T.UnreadableArgumentFiles.empty());
  auto Missing = translateCommand(split("/usr/bin/c++ @nope.rsp -c m.cpp"),
                                  "m.cpp", std::string(Dir), paths());
  ASSERT_EQ(Missing.UnreadableArgumentFiles.size(), 1u);
  EXPECT_NE(Missing.UnreadableArgumentFiles[0].find("nope.rsp"),
            std::string::npos);
  llvm::sys::fs::remove_directories(Dir);
}

TEST(CompileFlags, CCompilerCommandStaysC) {
  for (const char *Cc : {"/usr/bin/gcc", "/usr/bin/cc", "clang-19",
                         "/usr/bin/x86_64-linux-gnu-gcc-12"})
    EXPECT_EQ(
        translateCommand({Cc, "-c", "m.c"}, "m.c", "/b", paths()).Args.front(),
        "clang")
        << Cc;
  for (const char *Cxx : {"/usr/bin/c++", "g++", "clang++", "/usr/bin/nvcc",
                          "/opt/rocm/bin/hipcc"})
    EXPECT_EQ(translateCommand({Cxx, "-c", "m.cpp"}, "m.cpp", "/b", paths())
                  .Args.front(),
              "clang++")
        << Cxx;
}

TEST(CompileFlags, Defaults) {
  auto Cu = defaultCommand("x.cu", paths());
  ASSERT_TRUE(Cu);
  EXPECT_THAT(*Cu, Contains("--cuda-path=/cuda"));
  EXPECT_THAT(*Cu, Contains("--cuda-host-only"));
  auto Hip = defaultCommand("x.hip", paths());
  ASSERT_TRUE(Hip);
  EXPECT_THAT(*Hip, Contains("--offload-host-only"));
  auto Cpp = defaultCommand("x.cpp", paths());
  ASSERT_TRUE(Cpp);
  EXPECT_THAT(*Cpp, Contains("/cuda/include"));
  EXPECT_FALSE(defaultCommand("notes.txt", paths()));
  EXPECT_EQ(languageOfFile("k.cuh"), SourceLanguage::Cuda);
}

} // namespace

// A toolkit's own nvcc names its CUDA path; a wrapper script elsewhere (CI
// images put /usr/local/bin/nvcc exec'ing the real one) does not, even where
// the directory above it has an include/ (/usr/local/include).
TEST(CompileFlags, CudaPathFromNvccOnlyWhereAToolkitIs) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("cl-nvcc", Dir));
  std::string Kit = std::string(Dir) + "/cuda-13.0";
  std::string Wrap = std::string(Dir) + "/local";
  for (const std::string &Sub :
       {Kit + "/bin", Kit + "/include", Wrap + "/bin", Wrap + "/include"})
    ASSERT_FALSE(llvm::sys::fs::create_directories(Sub));
  for (const std::string &File :
       {Kit + "/include/cuda.h", Kit + "/bin/nvcc", Wrap + "/bin/nvcc"}) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(File, EC);
    ASSERT_FALSE(EC);
  }
  auto Own = translateCommand({Kit + "/bin/nvcc", "-c", "k.cu"}, "k.cu", "/b",
                              paths());
  EXPECT_THAT(Own.Args, Contains("--cuda-path=" + Kit));
  auto Wrapped = translateCommand({Wrap + "/bin/nvcc", "-c", "k.cu"}, "k.cu",
                                  "/b", paths());
  EXPECT_THAT(Wrapped.Args, Not(Contains("--cuda-path=" + Wrap)));
  EXPECT_THAT(Wrapped.Args, Contains("--cuda-path=/cuda"));
  // A symlink into the toolkit finds it through the link.
  std::string Link = std::string(Dir) + "/nvcc-link";
  ASSERT_FALSE(llvm::sys::fs::create_link(Kit + "/bin/nvcc", Link));
  auto Linked = translateCommand({Link, "-c", "k.cu"}, "k.cu", "/b", paths());
  EXPECT_THAT(Linked.Args, Contains("--cuda-path=" + Kit));
  llvm::sys::fs::remove_directories(Dir);
}
