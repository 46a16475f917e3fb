//===- ExpectedFailure.cpp - Calls a test expects to fail -----------------===//

#include "ExpectedFailure.h"

#include "capture_lint/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"

using namespace clang;

namespace capture_lint {

/// An error code other than success: a non-zero enumerator of an error
/// type (`cudaErrorIllegalState`), not any integer (`__LINE__`) or boolean.
static bool isFailureConstant(const Expr *E, const ASTContext &Ctx) {
  if (!E)
    return false;
  E = E->IgnoreParenImpCasts();
  if (!E->getType()->isEnumeralType())
    return false;
  auto V = constantInt(E, Ctx);
  return V && *V != 0;
}

/// The children of \p S that are expressions other than \p Except.
static bool hasFailureOperand(const Stmt *S, const Stmt *Except,
                              const ASTContext &Ctx) {
  for (const Stmt *C : S->children())
    if (C != Except && isFailureConstant(dyn_cast_or_null<Expr>(C), Ctx))
      return true;
  return false;
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

/// Walks up from \p E through a few expression parents looking for a
/// comparison, or a comparison helper, with a failure constant; a test
/// decomposer's operators (`Decomposer() <= x == y`) are passed through.
static bool comparedWithFailure(const Stmt *E, const ParentMap &PM,
                                const ASTContext &Ctx) {
  const Stmt *Child = E;
  unsigned Steps = 0;
  for (const Stmt *P = PM.getParent(E); P && Steps < 8;
       Child = P, P = PM.getParent(P), ++Steps) {
    if (isa<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr,
            CXXBindTemporaryExpr, ExprWithCleanups, CXXFunctionalCastExpr>(P))
      continue;
    if (const auto *B = dyn_cast<BinaryOperator>(P))
      return (B->isEqualityOp() || B->isRelationalOp()) &&
             hasFailureOperand(P, Child, Ctx);
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(P)) {
      OverloadedOperatorKind K = Op->getOperator();
      if (K == OO_EqualEqual || K == OO_ExclaimEqual)
        return hasFailureOperand(P, Child, Ctx);
      if (K == OO_LessEqual || K == OO_LessLess || K == OO_GreaterGreater ||
          K == OO_ArrowStar || K == OO_Star)
        continue; // a decomposer capturing the operand
      return false;
    }
    if (const auto *Call = dyn_cast<CallExpr>(P))
      return isComparisonHelper(directCallee(Call)) &&
             hasFailureOperand(P, Child, Ctx);
    if (const auto *C = dyn_cast<CXXConstructExpr>(P)) {
      if (C->getNumArgs() == 1)
        continue; // a copy, or a wrapper around the value
      return false;
    }
    return false;
  }
  return false;
}

bool resultExpectedToFail(const CallExpr *Call, const ParentMap &PM,
                          const ASTContext &Ctx) {
  if (comparedWithFailure(Call, PM, Ctx))
    return true;
  // `auto e = begin(...);` then `e` compared with a failure constant.
  const Stmt *Child = Call;
  const Stmt *P = PM.getParent(Call);
  while (P && isa<ImplicitCastExpr, ParenExpr, ExprWithCleanups>(P))
    Child = P, P = PM.getParent(P);
  const auto *DS = dyn_cast_or_null<DeclStmt>(P);
  if (!DS || !DS->isSingleDecl())
    return false;
  const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl());
  if (!VD || !VD->isLocalVarDecl())
    return false;
  // Every use of the local is in the statements after it in the same
  // compound statement (or nested in them).
  const auto *Block = dyn_cast_or_null<CompoundStmt>(PM.getParent(DS));
  if (!Block)
    return false;
  llvm::SmallVector<const Stmt *, 32> Work(Block->body_begin(),
                                           Block->body_end());
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (DRE->getDecl() == VD && comparedWithFailure(DRE, PM, Ctx))
        return true;
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return false;
}

} // namespace capture_lint
