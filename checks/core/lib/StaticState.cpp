//===- StaticState.cpp - Conditions on process-wide state -----------------===//

#include "capture_lint/StaticState.h"
#include "capture_lint/AstUtil.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace capture_lint {

const VarDecl *staticVariableOf(const Expr *E) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(unwrap(E));
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD && VD->hasGlobalStorage() ? VD->getCanonicalDecl() : nullptr;
}

/// The static variable a member call is made on, when the method is one of
/// \p Names (`g.find(k)` with Names = {"find"}).
static const VarDecl *staticObjectOf(const Expr *E,
                                     std::initializer_list<StringRef> Names) {
  const auto *M = dyn_cast_or_null<CXXMemberCallExpr>(unwrap(E));
  if (!M || !M->getMethodDecl() || !M->getMethodDecl()->getIdentifier())
    return nullptr;
  if (!llvm::is_contained(Names, M->getMethodDecl()->getName()))
    return nullptr;
  return staticVariableOf(M->getImplicitObjectArgument());
}

/// The left-hand side of an assignment (built-in or overloaded), or null.
static const Expr *assignedTo(const Stmt *S) {
  if (const auto *B = dyn_cast<BinaryOperator>(S))
    return B->isAssignmentOp() ? B->getLHS() : nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S))
    if (Op->isAssignmentOp() && Op->getNumArgs() == 2)
      return Op->getArg(0);
  return nullptr;
}

/// The static container an element assignment `V[k] = x` writes, or null.
static const VarDecl *subscriptedStatic(const Expr *LHS) {
  LHS = unwrap(LHS);
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(LHS))
    if (Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2)
      return staticVariableOf(Op->getArg(0));
  return nullptr;
}

/// Calls \p Found for every static container \p S inserts into.
template <typename Fn> static void forEachInsertion(const Stmt *S, Fn Found) {
  llvm::SmallVector<const Stmt *, 32> Work = {S};
  while (!Work.empty()) {
    const Stmt *Cur = Work.pop_back_val();
    if (!Cur)
      continue;
    if (const auto *E = dyn_cast<Expr>(Cur)) {
      if (const VarDecl *V = staticObjectOf(
              E, {"insert", "emplace", "emplace_hint", "try_emplace",
                  "insert_or_assign", "push_back", "emplace_back", "push_front",
                  "emplace_front"}))
        Found(V);
      if (const Expr *LHS = assignedTo(Cur))
        if (const VarDecl *V = subscriptedStatic(LHS))
          Found(V);
    }
    for (const Stmt *C : Cur->children())
      Work.push_back(C);
  }
}

std::vector<const VarDecl *> insertedStatics(const Stmt *S) {
  std::vector<const VarDecl *> Out;
  forEachInsertion(S, [&](const VarDecl *V) {
    if (!llvm::is_contained(Out, V))
      Out.push_back(V);
  });
  return Out;
}

bool insertsInto(const Stmt *S, const VarDecl *V) {
  bool Found = false;
  forEachInsertion(S, [&](const VarDecl *W) { Found |= W == V; });
  return Found;
}

bool writesStatic(const Stmt *S, const VarDecl *V) {
  if (!S || !V)
    return false;
  if (insertsInto(S, V))
    return true;
  llvm::SmallVector<const Stmt *, 32> Work = {S};
  while (!Work.empty()) {
    const Stmt *Cur = Work.pop_back_val();
    if (!Cur)
      continue;
    if (const Expr *LHS = assignedTo(Cur); LHS && staticVariableOf(LHS) == V)
      return true;
    if (const auto *U = dyn_cast<UnaryOperator>(Cur);
        U && U->getOpcode() == UO_AddrOf &&
        staticVariableOf(U->getSubExpr()) == V)
      return true; // cublasCreate(&handle)
    if (const auto *E = dyn_cast<Expr>(Cur);
        E && staticObjectOf(E, {"reset", "emplace", "store"}) == V)
      return true; // a unique_ptr, optional or atomic set
    for (const Stmt *C : Cur->children())
      Work.push_back(C);
  }
  return false;
}

/// The static container an iterator comes from: `V.find(k)`, or a local
/// initialised with it (`auto it = V.find(k);`).
static const VarDecl *foundIn(const Expr *E) {
  if (const VarDecl *V = staticObjectOf(E, {"find"}))
    return V;
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(unwrap(E));
  const auto *Local = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!Local || !Local->isLocalVarDecl() || !Local->getInit())
    return nullptr;
  return staticObjectOf(Local->getInit(), {"find"});
}

/// A null pointer, zero or false.
static bool isNullOrZero(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(E))
    return true;
  if (const auto *B = dyn_cast<CXXBoolLiteralExpr>(E))
    return !B->getValue();
  if (const auto *I = dyn_cast<IntegerLiteral>(E))
    return I->getValue().isZero();
  return false;
}

/// A static handle, pointer or flag tested for being set (`handle`,
/// `ptr.operator bool()`), or null.
static const VarDecl *staticFlagOf(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *M = dyn_cast<CXXMemberCallExpr>(E))
    if (isa_and_nonnull<CXXConversionDecl>(M->getMethodDecl()))
      return staticVariableOf(M->getImplicitObjectArgument());
  const VarDecl *V = staticVariableOf(E);
  if (!V || V->getType()->isReferenceType())
    return nullptr;
  QualType T = V->getType().getNonReferenceType();
  return T->isScalarType() ? V : nullptr;
}

/// firstUseWhen without the check that the function fills the state; sets
/// \p State to the variable tested.
static std::optional<bool> firstUseTest(const Expr *Cond,
                                        const VarDecl *&State) {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Cond)) {
    if (U->getOpcode() != UO_LNot)
      return std::nullopt;
    if (auto Inner = firstUseTest(U->getSubExpr(), State))
      return !*Inner;
    return std::nullopt;
  }
  // `V.count(k)`, `V.contains(k)`, `handle`: true when already there.
  if ((State = staticObjectOf(Cond, {"count", "contains"})))
    return false;
  if ((State = staticFlagOf(Cond)))
    return false;
  const Expr *L = nullptr, *R = nullptr;
  std::optional<bool> Equal;
  if (const auto *B = dyn_cast<BinaryOperator>(Cond); B && B->isEqualityOp())
    L = B->getLHS(), R = B->getRHS(), Equal = B->getOpcode() == BO_EQ;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Cond);
      Op && Op->getNumArgs() == 2 &&
      (Op->getOperator() == OO_EqualEqual ||
       Op->getOperator() == OO_ExclaimEqual))
    L = Op->getArg(0), R = Op->getArg(1),
    Equal = Op->getOperator() == OO_EqualEqual;
  if (!Equal)
    return std::nullopt;
  for (int Swap = 0; Swap < 2; ++Swap, std::swap(L, R)) {
    // `it == V.end()`: a miss when equal.
    if (const VarDecl *V = foundIn(L);
        V && staticObjectOf(R, {"end", "cend"}) == V) {
      State = V;
      return *Equal;
    }
    // `V.count(k) == 0`, `handle == nullptr`: unset when equal.
    if (!isNullOrZero(R))
      continue;
    if ((State = staticObjectOf(L, {"count"})) || (State = staticFlagOf(L)))
      return *Equal;
  }
  return std::nullopt;
}

std::optional<bool> firstUseWhen(const Expr *Cond, const Stmt *Body) {
  if (!Cond || !Body)
    return std::nullopt;
  const VarDecl *State = nullptr;
  auto When = firstUseTest(Cond, State);
  if (!When || !State || !writesStatic(Body, State))
    return std::nullopt;
  return When;
}

const VarDecl *containerOfEmptyTest(const Expr *Cond) {
  return Cond ? staticObjectOf(Cond->IgnoreParenImpCasts(), {"empty"})
              : nullptr;
}

} // namespace capture_lint
