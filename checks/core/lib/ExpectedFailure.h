//===- ExpectedFailure.h - Calls a test expects to fail ---------*- C++ -*-===//
//
// Conformance tests call a begin in a state where it must fail and check the
// error: `EXPECT_EQ(hipErrorIllegalState, hipStreamBeginCapture(s, m))`,
// `REQUIRE(cudaStreamBeginCapture(s, m) == cudaErrorX)`, or
// `auto e = hipStreamBeginCapture(s, m); REQUIRE(e == hipErrorX);` as
// HIP_CHECK_ERROR expands. Such a call begins no capture.
//
// The rule: the call's result (directly, or through a local initialised
// with it) is compared with, or passed together with, a constant of an enum
// type other than 0 (success), within a few levels of expression parents (a
// comparison operator, a comparison helper such as gtest's
// EqHelper::Compare, or an overloaded operator of a test decomposer; not
// `if (e == cudaErrorX)`, a branch), and no use compares it with success or
// tests it as a truth value. A begin
// starts a capture on every path where its result may be success: a check
// that tolerates some errors (`e != cudaSuccess && e != cudaErrorNotReady`,
// as HIP_CHECK expands) expects success, and the CFG's paths decide where
// the capture runs (RegionFinder::beginFailedOn).
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_EXPECTEDFAILURE_H
#define CAPTURE_LINT_EXPECTEDFAILURE_H

namespace clang {
class ASTContext;
class CallExpr;
class ParentMap;
} // namespace clang

namespace capture_lint {

bool resultExpectedToFail(const clang::CallExpr *Call,
                          const clang::ParentMap &PM,
                          const clang::ASTContext &Ctx);

} // namespace capture_lint

#endif // CAPTURE_LINT_EXPECTEDFAILURE_H
