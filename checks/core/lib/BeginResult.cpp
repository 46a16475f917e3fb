//===- BeginResult.cpp - What a begin's result says -----------------------===//

#include "BeginResult.h"

#include "capture_lint/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"

using namespace clang;

namespace capture_lint {

const VarDecl *resultVariable(const CallExpr *Call, const ParentMap &PM) {
  const Stmt *P = PM.getParent(Call);
  while (P && isa<ImplicitCastExpr, ParenExpr, ExprWithCleanups>(P))
    P = PM.getParent(P);
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(P))
    if (DS->isSingleDecl())
      return dyn_cast<VarDecl>(DS->getSingleDecl());
  if (const auto *B = dyn_cast_or_null<BinaryOperator>(P);
      B && B->getOpcode() == BO_Assign)
    if (const auto *DRE =
            dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts()))
      return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

std::optional<bool> valueAtSuccess(const Expr *Cond, IsResultFn IsResult,
                                   const ASTContext &Ctx, int64_t Success) {
  if (!Cond)
    return std::nullopt;
  Cond = Cond->IgnoreParenImpCasts();
  bool Negated = false;
  while (const auto *U = dyn_cast<UnaryOperator>(Cond)) {
    if (U->getOpcode() != UO_LNot)
      return std::nullopt;
    Negated = !Negated;
    Cond = U->getSubExpr()->IgnoreParenImpCasts();
  }
  // A checking function given the result (`if (print_if_error(begin(...)))`)
  // whose body ends in `return e != cudaSuccess;`: its value at success.
  if (const auto *Call = dyn_cast<CallExpr>(Cond)) {
    const FunctionDecl *Callee = directCallee(Call);
    const FunctionDecl *Def = nullptr;
    const auto *Body = Callee && Callee->hasBody(Def) && Def
                           ? dyn_cast<CompoundStmt>(Def->getBody())
                           : nullptr;
    const auto *Ret = Body && !Body->body_empty()
                          ? dyn_cast<ReturnStmt>(Body->body_back())
                          : nullptr;
    for (unsigned I = 0;
         Ret && I < Call->getNumArgs() && I < Def->getNumParams(); ++I)
      if (IsResult(Call->getArg(I))) {
        const ParmVarDecl *P = Def->getParamDecl(I);
        auto IsParam = [P](const Expr *E) {
          const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
          return DRE && DRE->getDecl() == P;
        };
        if (auto V = valueAtSuccess(Ret->getRetValue(), IsParam, Ctx, Success))
          return *V != Negated;
        return std::nullopt;
      }
  }
  if (IsResult(Cond))
    return (Success != 0) != Negated;
  const auto *B = dyn_cast<BinaryOperator>(Cond);
  if (!B || !B->isEqualityOp())
    return std::nullopt;
  const Expr *Other = IsResult(B->getLHS())   ? B->getRHS()
                      : IsResult(B->getRHS()) ? B->getLHS()
                                              : nullptr;
  auto V = Other ? constantInt(Other, Ctx) : std::nullopt;
  if (!V)
    return std::nullopt;
  return ((*V == Success) == (B->getOpcode() == BO_EQ)) != Negated;
}

/// The constant the statements \p Stmts return first when the condition
/// tests \p IsResult's value are decided by it being \p Success: `if (e !=
/// cudaSuccess) { ...; return kError; } return kSuccess;` or `return e ==
/// cudaSuccess ? kSuccess : kError;`; none when they do not say.
static std::optional<int64_t> returnedAt(llvm::ArrayRef<const Stmt *> Stmts,
                                         IsResultFn IsResult, int64_t Success,
                                         const ASTContext &Ctx) {
  for (const Stmt *S : Stmts) {
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      auto Taken = valueAtSuccess(If->getCond(), IsResult, Ctx, Success);
      if (!Taken)
        return std::nullopt;
      const Stmt *Branch = *Taken ? If->getThen() : If->getElse();
      if (!Branch)
        continue;
      llvm::SmallVector<const Stmt *, 8> Inner;
      if (const auto *C = dyn_cast<CompoundStmt>(Branch))
        Inner.append(C->body_begin(), C->body_end());
      else
        Inner.push_back(Branch);
      if (llvm::any_of(Inner, [](const Stmt *X) { return isa<ReturnStmt>(X); }))
        return returnedAt(Inner, IsResult, Success, Ctx);
      continue;
    }
    const auto *Ret = dyn_cast<ReturnStmt>(S);
    if (!Ret)
      continue; // logging, a cudaGetLastError() to clear the error
    const Expr *V = Ret->getRetValue();
    if (!V)
      return std::nullopt;
    if (const auto *Cond =
            dyn_cast<ConditionalOperator>(V->IgnoreParenImpCasts())) {
      auto Taken = valueAtSuccess(Cond->getCond(), IsResult, Ctx, Success);
      if (!Taken)
        return std::nullopt;
      V = *Taken ? Cond->getTrueExpr() : Cond->getFalseExpr();
    }
    return constantInt(V, Ctx);
  }
  return std::nullopt;
}

std::optional<int64_t> convertedSuccess(const FunctionDecl *Conv, unsigned Arg,
                                        int64_t Success,
                                        const ASTContext &Ctx) {
  const FunctionDecl *Def = nullptr;
  if (!Conv || !Conv->hasBody(Def) || !Def || Arg >= Def->getNumParams())
    return std::nullopt;
  const auto *Body = dyn_cast<CompoundStmt>(Def->getBody());
  if (!Body)
    return std::nullopt;
  const ParmVarDecl *P = Def->getParamDecl(Arg);
  auto IsParam = [P](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == P;
  };
  llvm::SmallVector<const Stmt *, 8> Stmts(Body->body_begin(),
                                           Body->body_end());
  return returnedAt(Stmts, IsParam, Success, Ctx);
}

} // namespace capture_lint
