//===- CapturePredicates.cpp - Functions that answer "capturing?" ---------===//

#include "CapturePredicates.h"
#include "capture_lint/Guards.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace capture_lint {

/// A bool (or int, for C APIs) function: every return a guard condition,
/// all one way (`return int(status != cudaStreamCaptureStatusNone);`).
static std::optional<bool> boolSense(const Stmt *Body,
                                     const GuardRecognizer &G) {
  std::optional<bool> Sense;
  llvm::SmallVector<const Stmt *, 32> Work = {Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (const auto *Ret = dyn_cast<ReturnStmt>(S)) {
      const Expr *V = Ret->getRetValue();
      auto When = V ? G.notCapturingWhen(V->IgnoreParenCasts()) : std::nullopt;
      if (!When || (Sense && *Sense != *When))
        return std::nullopt;
      Sense = When;
    }
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  if (!Sense)
    return std::nullopt;
  return !*Sense;
}

namespace {
/// Walks a pointer function's body, knowing at each statement whether an
/// enclosing guard says the stream is capturing there.
class LookupWalk {
public:
  LookupWalk(const GuardRecognizer &G, ASTContext &Ctx) : G(G), Ctx(Ctx) {}

  /// True when every non-null return is where the stream is capturing, and
  /// there is one.
  bool run(const Stmt *Body) {
    walk(Body, false);
    return NonNull && !Bad;
  }

private:
  /// Whether the stream is capturing where \p Cond is \p Value.
  bool capturingWhere(const Expr *Cond, bool Value) const {
    if (!Cond)
      return false;
    const Expr *C = Cond->IgnoreParenImpCasts();
    if (const auto *B = dyn_cast<BinaryOperator>(C)) {
      if (Value && B->getOpcode() == BO_LAnd)
        return capturingWhere(B->getLHS(), true) ||
               capturingWhere(B->getRHS(), true);
      if (!Value && B->getOpcode() == BO_LOr)
        return capturingWhere(B->getLHS(), false) ||
               capturingWhere(B->getRHS(), false);
    }
    auto NotCapturingWhenTrue = G.notCapturingWhen(C);
    return NotCapturingWhenTrue && *NotCapturingWhenTrue != Value;
  }

  static bool alwaysReturns(const Stmt *S) {
    if (isa_and_nonnull<ReturnStmt>(S))
      return true;
    const auto *CS = dyn_cast_or_null<CompoundStmt>(S);
    return CS && !CS->body_empty() && isa<ReturnStmt>(CS->body_back());
  }

  void walk(const Stmt *S, bool Capturing) {
    if (!S || Bad || isa<LambdaExpr>(S))
      return;
    if (const auto *Ret = dyn_cast<ReturnStmt>(S)) {
      const Expr *V = Ret->getRetValue();
      if (V &&
          !V->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull)) {
        NonNull = true;
        Bad |= !Capturing;
      }
      return;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      walk(If->getThen(), Capturing || capturingWhere(If->getCond(), true));
      walk(If->getElse(), Capturing || capturingWhere(If->getCond(), false));
      return;
    }
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      // `if (!capturing) return nullptr;` makes the rest capturing.
      for (const Stmt *Child : CS->body()) {
        walk(Child, Capturing);
        const auto *If = dyn_cast<IfStmt>(Child);
        if (If && !If->getElse() && alwaysReturns(If->getThen()) &&
            capturingWhere(If->getCond(), false))
          Capturing = true;
      }
      return;
    }
    for (const Stmt *C : S->children())
      walk(C, Capturing);
  }

  const GuardRecognizer &G;
  ASTContext &Ctx;
  bool NonNull = false;
  bool Bad = false;
};
} // namespace

std::optional<bool> capturePredicateSense(const FunctionDecl *Def,
                                          const Catalog &Cat, ASTContext &Ctx,
                                          RoleOracle *Roles) {
  const Stmt *Body = Def ? Def->getBody() : nullptr;
  QualType Ret = Def ? Def->getReturnType() : QualType();
  if (!Body || !(Ret->isIntegerType() || Ret->isPointerType()))
    return std::nullopt;
  GuardRecognizer G(Cat, Ctx, Roles);
  G.scan(Body);
  if (Ret->isIntegerType())
    return boolSense(Body, G);
  if (LookupWalk(G, Ctx).run(Body))
    return true;
  return std::nullopt;
}

} // namespace capture_lint
