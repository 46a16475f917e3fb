//===- ExpectedFailure.cpp - Calls a test expects to fail -----------------===//

#include "ExpectedFailure.h"

#include "capture_lint/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"

using namespace clang;

namespace capture_lint {

/// What a comparison says about the result it tests.
enum class Compared { Nothing, WithSuccess, WithFailure };

/// An error code constant: success (0), or a failure (a non-zero enumerator
/// of an error type such as `cudaErrorIllegalState`, not any integer such as
/// `__LINE__`, nor a boolean).
static Compared constantKind(const Expr *E, const ASTContext &Ctx) {
  if (!E)
    return Compared::Nothing;
  E = E->IgnoreParenImpCasts();
  auto V = constantInt(E, Ctx);
  if (!V || E->getType()->isBooleanType())
    return Compared::Nothing;
  if (*V == 0)
    return Compared::WithSuccess;
  return E->getType()->isEnumeralType() ? Compared::WithFailure
                                        : Compared::Nothing;
}

/// The constant among the children of \p S other than \p Except.
static Compared otherOperand(const Stmt *S, const Stmt *Except,
                             const ASTContext &Ctx) {
  for (const Stmt *C : S->children())
    if (C != Except)
      if (Compared K = constantKind(dyn_cast_or_null<Expr>(C), Ctx);
          K != Compared::Nothing)
        return K;
  return Compared::Nothing;
}

/// A function that compares its arguments, by name: gtest's
/// EqHelper::Compare and CmpHelperEQ, `expect_eq`, `check_equal`, ...
static bool isComparisonHelper(const FunctionDecl *FD) {
  if (!FD || !FD->getDeclName().isIdentifier())
    return false;
  llvm::StringRef N = FD->getName();
  for (llvm::StringRef Word :
       {"eq", "compare", "expect", "assert", "check", "require", "equal"})
    if (N.contains_insensitive(Word))
      return true;
  return false;
}

/// Whether \p E is (a part joined by && or || of) the condition of a branch.
static bool isBranchCondition(const Expr *E, const ParentMap &PM) {
  const Stmt *Child = E;
  for (const Stmt *P = PM.getParent(E); P; Child = P, P = PM.getParent(P)) {
    if (isa<ParenExpr, ImplicitCastExpr, ExprWithCleanups>(P))
      continue;
    if (const auto *B = dyn_cast<BinaryOperator>(P); B && B->isLogicalOp())
      continue;
    if (const auto *U = dyn_cast<UnaryOperator>(P);
        U && U->getOpcode() == UO_LNot)
      continue;
    if (const auto *If = dyn_cast<IfStmt>(P))
      return If->getCond() == Child;
    if (const auto *C = dyn_cast<ConditionalOperator>(P))
      return C->getCond() == Child;
    if (const auto *W = dyn_cast<WhileStmt>(P))
      return W->getCond() == Child;
    return false;
  }
  return false;
}

/// Walks up from \p E through a few expression parents to the comparison
/// (or comparison helper) that tests it, and says what it is compared
/// with; a test decomposer's operators (`Decomposer() <= x == y`) are
/// passed through. A use as a truth value (`if (e)`, `!e`) tests success.
static Compared comparison(const Stmt *E, const ParentMap &PM,
                           const ASTContext &Ctx) {
  const Stmt *Child = E;
  unsigned Steps = 0;
  for (const Stmt *P = PM.getParent(E); P && Steps < 8;
       Child = P, P = PM.getParent(P), ++Steps) {
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(P)) {
      if (Cast->getCastKind() == CK_IntegralToBoolean)
        return Compared::WithSuccess;
      continue;
    }
    if (isa<ParenExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
            ExprWithCleanups, CXXFunctionalCastExpr>(P))
      continue;
    if (const auto *U = dyn_cast<UnaryOperator>(P))
      return U->getOpcode() == UO_LNot ? Compared::WithSuccess
                                       : Compared::Nothing;
    if (const auto *B = dyn_cast<BinaryOperator>(P)) {
      if (!B->isEqualityOp() && !B->isRelationalOp())
        return Compared::Nothing;
      Compared K = otherOperand(P, Child, Ctx);
      // `if (e == cudaErrorX) return;` branches on the error: the other
      // path goes on with any other result, success among them.
      if (K == Compared::WithFailure && B->getOpcode() == BO_EQ &&
          isBranchCondition(B, PM))
        return Compared::Nothing;
      return K;
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(P)) {
      OverloadedOperatorKind K = Op->getOperator();
      if (K == OO_EqualEqual || K == OO_ExclaimEqual)
        return otherOperand(P, Child, Ctx);
      if (K == OO_LessEqual || K == OO_LessLess || K == OO_GreaterGreater ||
          K == OO_ArrowStar || K == OO_Star)
        continue; // a decomposer capturing the operand
      return Compared::Nothing;
    }
    if (const auto *Call = dyn_cast<CallExpr>(P))
      return isComparisonHelper(directCallee(Call))
                 ? otherOperand(P, Child, Ctx)
                 : Compared::Nothing;
    if (const auto *C = dyn_cast<CXXConstructExpr>(P)) {
      if (C->getNumArgs() == 1)
        continue; // a copy, or a wrapper around the value
      return Compared::Nothing;
    }
    return Compared::Nothing;
  }
  return Compared::Nothing;
}

/// The uses that test the result of \p Call: the call itself, or, for
/// `auto e = begin(...);`, every reference to `e` in the statements after
/// it in the same compound statement (or nested in them).
static llvm::SmallVector<const Stmt *, 4> resultUses(const CallExpr *Call,
                                                     const ParentMap &PM) {
  llvm::SmallVector<const Stmt *, 4> Uses{Call};
  const Stmt *P = PM.getParent(Call);
  while (P && isa<ImplicitCastExpr, ParenExpr, ExprWithCleanups>(P))
    P = PM.getParent(P);
  const auto *DS = dyn_cast_or_null<DeclStmt>(P);
  if (!DS || !DS->isSingleDecl())
    return Uses;
  const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl());
  const auto *Block = dyn_cast_or_null<CompoundStmt>(PM.getParent(DS));
  if (!VD || !VD->isLocalVarDecl() || !Block)
    return Uses;
  llvm::SmallVector<const Stmt *, 32> Work(Block->body_begin(),
                                           Block->body_end());
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (DRE->getDecl() == VD)
        Uses.push_back(DRE);
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return Uses;
}

bool resultExpectedToFail(const CallExpr *Call, const ParentMap &PM,
                          const ASTContext &Ctx) {
  // A begin starts a capture on every path where its result may be success:
  // a test that lets some errors through (`e != cudaSuccess && e !=
  // cudaErrorNotReady`) still compares with success, so the begin is
  // expected to work and the paths decide (RegionFinder::beginFailedOn).
  bool WithFailure = false;
  for (const Stmt *Use : resultUses(Call, PM)) {
    Compared K = comparison(Use, PM, Ctx);
    if (K == Compared::WithSuccess)
      return false;
    WithFailure |= K == Compared::WithFailure;
  }
  return WithFailure;
}

} // namespace capture_lint
