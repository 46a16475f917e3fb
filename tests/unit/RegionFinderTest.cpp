//===- RegionFinderTest.cpp - Capture regions on the CFG ------------------===//
//
// Each test places mark(N) calls and asserts which of them the region finder
// puts inside a region.
//
//===----------------------------------------------------------------------===//

#include "capture_lint/RegionFinder.h"
#include "TestAST.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "gtest/gtest.h"

#include <map>

using namespace capture_lint;
using namespace capture_lint::test;

namespace {

/// mark(N) -> inside a region (and not guarded) on some path.
std::map<int, bool> marks(const std::string &Code, const char *Fn = "f",
                          std::vector<CaptureRegion> *Regions = nullptr) {
  auto AST = parse(Code);
  EXPECT_TRUE(AST);
  if (!AST)
    return {};
  const clang::FunctionDecl *FD = function(*AST, Fn);
  EXPECT_TRUE(FD);
  std::map<int, bool> Out;
  forEachMark(*AST, FD,
              [&](int N, const FlowState &St) { Out[N] |= St.inRegion(); });
  RegionFinder RF(FD, FD->getBody(), AST->getASTContext(), builtinCatalog(),
                  /*CalleeMode=*/false);
  EXPECT_TRUE(RF.valid());
  if (Regions)
    *Regions = RF.regions();
  return Out;
}

TEST(RegionFinder, StraightLine) {
  auto M = marks(R"(void f(cudaStream_t s) {
    cudaGraph_t g; mark(0);
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal); mark(1);
    cudaStreamEndCapture(s, &g); mark(2); })");
  EXPECT_FALSE(M[0]);
  EXPECT_TRUE(M[1]);
  EXPECT_FALSE(M[2]);
}

TEST(RegionFinder, EndInBranchLeavesOtherPathInside) {
  auto M = marks(R"(void f(cudaStream_t s, bool b) {
    cudaGraph_t g;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    if (b) { cudaStreamEndCapture(s, &g); mark(0); return; }
    mark(1);
    cudaStreamEndCapture(s, &g); mark(2); })");
  EXPECT_FALSE(M[0]);
  EXPECT_TRUE(M[1]);
  EXPECT_FALSE(M[2]);
}

TEST(RegionFinder, OneSidedEndJoinsAsInside) {
  auto M = marks(R"(void f(cudaStream_t s, bool b) {
    cudaGraph_t g;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    if (b) cudaStreamEndCapture(s, &g);
    mark(0); })");
  EXPECT_TRUE(M[0]);
}

TEST(RegionFinder, EarlyReturnBeforeBegin) {
  auto M = marks(R"(void f(cudaStream_t s, bool b) {
    cudaGraph_t g;
    if (b) { mark(0); return; }
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal); mark(1);
    cudaStreamEndCapture(s, &g); })");
  EXPECT_FALSE(M[0]);
  EXPECT_TRUE(M[1]);
}

TEST(RegionFinder, BeginAndEndInLoop) {
  auto M = marks(R"(void f(cudaStream_t s, int n) {
    cudaGraph_t g;
    for (int i = 0; i < n; ++i) {
      mark(0);
      cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal); mark(1);
      cudaStreamEndCapture(s, &g); mark(2);
    }
    mark(3); })");
  EXPECT_FALSE(M[0]);
  EXPECT_TRUE(M[1]);
  EXPECT_FALSE(M[2]);
  EXPECT_FALSE(M[3]);
}

TEST(RegionFinder, BeginInLoopEndAfter) {
  auto M = marks(R"(void f(cudaStream_t s, int n) {
    cudaGraph_t g;
    for (int i = 0; i < n; ++i) {
      mark(0);
      if (i == 0) cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
      mark(1);
    }
    cudaStreamEndCapture(s, &g); mark(2); })");
  EXPECT_TRUE(M[0]); // the second iteration is inside
  EXPECT_TRUE(M[1]);
  EXPECT_FALSE(M[2]);
}

TEST(RegionFinder, DifferentStreamDoesNotEnd) {
  auto M = marks(R"(void f(cudaStream_t s, cudaStream_t t) {
    cudaGraph_t g;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    cudaStreamEndCapture(t, &g); mark(0);
    cudaStreamEndCapture(s, &g); mark(1); })");
  EXPECT_TRUE(M[0]);
  EXPECT_FALSE(M[1]);
}

TEST(RegionFinder, ModeAndStream) {
  std::vector<CaptureRegion> R;
  marks(R"(void f(cudaStream_t stream, cudaStreamCaptureMode m) {
    cudaGraph_t g;
    cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed);
    cudaStreamEndCapture(stream, &g);
    cudaStreamBeginCapture(stream, m);
    cudaStreamEndCapture(stream, &g);
    cudaStreamBeginCapture(stream, (cudaStreamCaptureMode)1);
    cudaStreamEndCapture(stream, &g); })",
        "f", &R);
  ASSERT_EQ(R.size(), 3u);
  EXPECT_EQ(R[0].Mode, CaptureMode::Relaxed);
  EXPECT_EQ(R[1].Mode, CaptureMode::Unknown);
  EXPECT_EQ(R[2].Mode, CaptureMode::ThreadLocal);
  EXPECT_EQ(R[0].Stream, "stream");
  EXPECT_EQ(R[0].Ends.size(), 1u);
}

TEST(RegionFinder, BeginWithoutEndHasNoEnds) {
  std::vector<CaptureRegion> R;
  auto M = marks(R"(void f(cudaStream_t s) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal); mark(0); })",
                 "f", &R);
  EXPECT_TRUE(M[0]);
  ASSERT_EQ(R.size(), 1u);
  EXPECT_TRUE(R[0].Ends.empty());
}

} // namespace
