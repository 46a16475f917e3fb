//===- GuardsTest.cpp - Capture-status guards -----------------------------===//

#include "TestAST.h"
#include "capture_lint/RegionFinder.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "gtest/gtest.h"

#include <map>

using namespace capture_lint;
using namespace capture_lint::test;

namespace {

std::map<int, bool> guarded(const std::string &Body) {
  auto AST = parse("void f(cudaStream_t s, bool b) { cudaGraph_t g; "
                   "cudaStreamCaptureStatus st; "
                   "cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal); "
                   "cudaStreamIsCapturing(s, &st); " +
                   Body + " cudaStreamEndCapture(s, &g); }");
  const clang::FunctionDecl *FD = function(*AST, "f");
  std::map<int, bool> Out;
  forEachMark(*AST, FD,
              [&](int N, const FlowState &St) { Out[N] = St.Guarded; });
  return Out;
}

TEST(Guards, EqualsNoneGuardsThenBranch) {
  auto M = guarded("if (st == cudaStreamCaptureStatusNone) mark(0); "
                   "else mark(1); mark(2);");
  EXPECT_TRUE(M[0]);
  EXPECT_FALSE(M[1]);
  EXPECT_FALSE(M[2]);
}

TEST(Guards, NotEqualsNoneGuardsElseBranch) {
  auto M = guarded("if (cudaStreamCaptureStatusNone != st) mark(0); "
                   "else mark(1);");
  EXPECT_FALSE(M[0]);
  EXPECT_TRUE(M[1]);
}

TEST(Guards, NegationAndTruthiness) {
  auto M = guarded("if (!st) mark(0); if (st) mark(1); else mark(2);");
  EXPECT_TRUE(M[0]);
  EXPECT_FALSE(M[1]);
  EXPECT_TRUE(M[2]);
}

TEST(Guards, EarlyReturnGuardsTheRest) {
  auto M = guarded("if (st != cudaStreamCaptureStatusNone) { mark(0); "
                   "cudaStreamEndCapture(s, &g); return; } mark(1);");
  EXPECT_FALSE(M[0]);
  EXPECT_TRUE(M[1]);
}

TEST(Guards, ConjunctionGuardsOnlyTheTakenSide) {
  auto M = guarded("if (st == cudaStreamCaptureStatusNone && b) mark(0); "
                   "else mark(1);");
  EXPECT_TRUE(M[0]);
  EXPECT_FALSE(M[1]);
}

TEST(Guards, UnrelatedConditionIsNoGuard) {
  auto M = guarded("if (b) mark(0);");
  EXPECT_FALSE(M[0]);
}

} // namespace
