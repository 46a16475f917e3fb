//===- FrozenValues.cpp - Host state a region updates and hands to work ---===//

#include "FrozenValues.h"

#include "capture_lint/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace capture_lint {

/// A value handed to a kernel rather than an address: addresses and offsets
/// into workspaces are meant to stay fixed across replays.
static bool isValueType(QualType T) {
  return T->isArithmeticType() || T->isEnumeralType();
}

std::string FrozenValues::persistentKey(const Expr *E) const {
  E = E->IgnoreParenImpCasts();
  std::string Key = streamKey(E);
  if (Key.empty())
    return "";
  bool ThroughPointer = false;
  while (const auto *ME = dyn_cast<MemberExpr>(E)) {
    ThroughPointer |= ME->isArrow();
    E = ME->getBase()->IgnoreParenImpCasts();
  }
  if (isa<CXXThisExpr>(E))
    return Key;
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V)
    return "";
  if (V->hasGlobalStorage() || V->getType()->isReferenceType() ||
      ThroughPointer)
    return Key;
  return "";
}

/// Whether \p RHS reads the state \p Key names (`x = x + 1`).
static bool readsKey(const Expr *RHS, const std::string &Key) {
  bool Reads = false;
  walkStatements(RHS, [&](const Stmt *S) {
    if (isa<MemberExpr, DeclRefExpr>(S) && streamKey(cast<Expr>(S)) == Key)
      Reads = true;
    return !Reads;
  });
  return Reads;
}

void FrozenValues::noteUpdate(const Stmt *S) {
  const Expr *Target = nullptr;
  SourceLocation Loc;
  if (const auto *U = dyn_cast<UnaryOperator>(S)) {
    if (U->isIncrementDecrementOp())
      Target = U->getSubExpr(), Loc = U->getExprLoc();
  } else if (const auto *C = dyn_cast<CompoundAssignOperator>(S)) {
    Target = C->getLHS(), Loc = C->getOperatorLoc();
  } else if (const auto *B = dyn_cast<BinaryOperator>(S)) {
    if (B->getOpcode() == BO_Assign) {
      std::string Key = persistentKey(B->getLHS());
      if (!Key.empty() && readsKey(B->getRHS(), Key))
        Target = B->getLHS(), Loc = B->getOperatorLoc();
    }
  }
  if (!Target || !isValueType(Target->getType()))
    return;
  std::string Key = persistentKey(Target);
  if (Key.empty() || Updates.count(Key))
    return;
  std::string Text = sourceText(Target, Ctx);
  Updates[Key] = {Text.empty() ? "the counter" : Text, Loc};
  CarriersDone = false;
}

/// What \p E carries: the key of an updated state it reads as a value, or
/// of the state a local it reads carries. Addresses are not followed.
std::string FrozenValues::updatedStateIn(const Expr *E) const {
  std::string Found;
  walkStatements(E, [&](const Stmt *S) {
    const auto *X = dyn_cast<Expr>(S);
    if (!Found.empty() || isa<LambdaExpr>(S) ||
        (X && X->getType()->isPointerType()))
      return false;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
        auto It = Carriers.find(V);
        if (It != Carriers.end())
          Found = It->second.Key;
      }
    if (Found.empty() && isa<MemberExpr, DeclRefExpr>(S) &&
        isValueType(X->getType())) {
      std::string Key = persistentKey(X);
      if (!Key.empty() && Updates.count(Key))
        Found = Key;
    }
    return Found.empty();
  });
  return Found;
}

namespace {
/// Writes to locals (or their fields): `T v = e;`, `v = e;`, `v.f.g = e;`.
class LocalWrites : public RecursiveASTVisitor<LocalWrites> {
public:
  struct Write {
    const VarDecl *Var;
    const Expr *Value;
    SourceLocation Loc;
  };
  std::vector<Write> Writes;

  bool VisitVarDecl(VarDecl *V) {
    if (V->hasLocalStorage() && !V->getType()->isReferenceType() &&
        V->getInit() && !V->getType()->isPointerType())
      Writes.push_back({V, V->getInit(), V->getLocation()});
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp() && !B->getLHS()->getType()->isPointerType())
      if (const VarDecl *V = localRoot(B->getLHS()))
        Writes.push_back({V, B->getRHS(), B->getOperatorLoc()});
    return true;
  }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

private:
  static const VarDecl *localRoot(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    while (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ME->isArrow())
        return nullptr;
      E = ME->getBase()->IgnoreParenImpCasts();
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    return V && V->hasLocalStorage() && !V->getType()->isReferenceType()
               ? V
               : nullptr;
  }
};
} // namespace

void FrozenValues::computeCarriers() {
  CarriersDone = true;
  Carriers.clear();
  if (Updates.empty() || !Body)
    return;
  LocalWrites W;
  W.TraverseStmt(const_cast<Stmt *>(Body));
  // Each round adds at least one carrier, so this ends.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const auto &Wr : W.Writes) {
      if (Carriers.count(Wr.Var))
        continue;
      std::string Key = updatedStateIn(Wr.Value);
      if (Key.empty())
        continue;
      Carriers[Wr.Var] = {Key, Wr.Loc};
      Changed = true;
    }
  }
}

std::optional<FrozenValues::Carried> FrozenValues::carriedBy(const Expr *Arg) {
  if (Updates.empty())
    return std::nullopt;
  if (!CarriersDone)
    computeCarriers();
  std::string Key = updatedStateIn(Arg);
  if (Key.empty())
    return std::nullopt;
  Carried C;
  C.State = Updates[Key].Text;
  C.UpdateLoc = Updates[Key].Loc;
  // Name the local when the argument reaches the state through one.
  walkStatements(Arg, [&](const Stmt *S) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
        auto It = Carriers.find(V);
        if (It != Carriers.end() && It->second.Key == Key &&
            C.Carrier.empty()) {
          C.Carrier = V->getNameAsString();
          C.CarrierLoc = It->second.Loc;
        }
      }
    return C.Carrier.empty();
  });
  return C;
}

} // namespace capture_lint
