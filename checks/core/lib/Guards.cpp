//===- Guards.cpp - Recognise "is this stream capturing?" checks ----------===//

#include "capture_lint/Guards.h"
#include "capture_lint/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace capture_lint {

namespace {
class StatusVarCollector : public RecursiveASTVisitor<StatusVarCollector> {
public:
  StatusVarCollector(const Catalog &Cat,
                     llvm::DenseMap<const ValueDecl *, const GuardApi *> &Out)
      : Cat(Cat), Out(Out) {}

  bool VisitCallExpr(CallExpr *Call) {
    const GuardApi *G = Cat.findGuard(catalogName(Call->getDirectCallee()));
    if (!G || G->StatusArg < 0 ||
        static_cast<unsigned>(G->StatusArg) >= Call->getNumArgs())
      return true;
    if (const ValueDecl *V = baseDeclOf(Call->getArg(G->StatusArg)))
      Out[V] = G;
    return true;
  }
  // A lambda's body is its own function.
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

private:
  const Catalog &Cat;
  llvm::DenseMap<const ValueDecl *, const GuardApi *> &Out;
};
} // namespace

namespace {
/// Bool variables initialised or assigned from a guard condition.
class BoolVarCollector : public RecursiveASTVisitor<BoolVarCollector> {
public:
  BoolVarCollector(const GuardRecognizer &G,
                   llvm::DenseMap<const ValueDecl *, bool> &Out)
      : G(G), Out(Out) {}

  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getType()->isBooleanType() && VD->getInit())
      record(VD, VD->getInit());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->getOpcode() == BO_Assign && B->getType()->isBooleanType())
      if (const ValueDecl *V = baseDeclOf(B->getLHS()))
        if (namesDecl(B->getLHS()->IgnoreParenImpCasts(), V))
          record(V, B->getRHS());
    return true;
  }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

private:
  void record(const ValueDecl *V, const Expr *Init) {
    if (auto When = G.notCapturingWhen(Init))
      Out[V] = *When;
  }
  const GuardRecognizer &G;
  llvm::DenseMap<const ValueDecl *, bool> &Out;
};
} // namespace

void GuardRecognizer::scan(const Stmt *Body) {
  if (!Body)
    return;
  StatusVarCollector(Cat, StatusVars).TraverseStmt(const_cast<Stmt *>(Body));
  BoolVarCollector(*this, BoolVars).TraverseStmt(const_cast<Stmt *>(Body));
}

/// The guard whose "none" status is an enumerator of \p T: a status kept in
/// a variable of that type (a member written by another method).
static const GuardApi *guardOfStatusType(QualType T, const Catalog &Cat) {
  const auto *ET = T.getCanonicalType()->getAs<EnumType>();
  if (!ET)
    return nullptr;
  for (const auto &G : Cat.guards())
    for (const EnumConstantDecl *C : ET->getDecl()->enumerators())
      for (const std::string &N : G->NoneValues)
        if (N == C->getNameAsString() || N == C->getQualifiedNameAsString())
          return G.get();
  return nullptr;
}

const GuardApi *GuardRecognizer::statusOperand(const Expr *E) const {
  E = unwrap(E);
  if (isa_and_nonnull<DeclRefExpr, MemberExpr>(E)) {
    const ValueDecl *V = baseDeclOf(E);
    auto It = V && namesDecl(E, V) ? StatusVars.find(V) : StatusVars.end();
    if (It != StatusVars.end())
      return It->second;
    if (isa<MemberExpr>(E) && V && namesDecl(E, V))
      return guardOfStatusType(V->getType(), Cat);
    return nullptr;
  }
  if (const auto *Call = dyn_cast_or_null<CallExpr>(E)) {
    const GuardApi *G = Cat.findGuard(catalogName(Call->getDirectCallee()));
    if (G && G->StatusArg < 0)
      return G;
  }
  return nullptr;
}

bool GuardRecognizer::isNoneValue(const Expr *E, const GuardApi &G) const {
  const NamedDecl *D = namedDeclOf(E);
  if (const auto *ECD = dyn_cast_or_null<EnumConstantDecl>(D)) {
    std::string Qualified = ECD->getQualifiedNameAsString();
    std::string Plain = ECD->getNameAsString();
    for (const std::string &N : G.NoneValues) {
      if (N == Qualified || N == Plain)
        return true;
      // "at::cuda::CaptureStatus::None" matches
      // "c10::cuda::CaptureStatus::None" through a using-declaration: compare
      // the last two components.
      StringRef NR(N);
      size_t Cut = NR.rfind("::");
      if (Cut != StringRef::npos) {
        size_t Cut2 = NR.substr(0, Cut).rfind("::");
        StringRef Tail = Cut2 == StringRef::npos ? NR : NR.substr(Cut2 + 2);
        if (StringRef(Qualified).ends_with(Tail))
          return true;
      }
    }
    return false;
  }
  auto V = constantInt(E, Ctx);
  return V && *V == 0; // every "none" status is the enumerator 0
}

std::optional<bool> GuardRecognizer::notCapturingWhen(const Expr *Cond) const {
  if (!Cond)
    return std::nullopt;
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *Call = dyn_cast<CallExpr>(Cond))
    if (const FunctionRole *R =
            Roles ? Roles->roleOf(Call->getDirectCallee()) : nullptr)
      if (R->TrueWhenCapturing)
        return !*R->TrueWhenCapturing;
  if (isa<DeclRefExpr, MemberExpr>(Cond)) {
    const ValueDecl *V = baseDeclOf(Cond);
    auto It = V && namesDecl(Cond, V) ? BoolVars.find(V) : BoolVars.end();
    if (It != BoolVars.end())
      return It->second;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(Cond)) {
    if (U->getOpcode() == UO_LNot) {
      if (auto Inner = notCapturingWhen(U->getSubExpr()))
        return !*Inner;
      // !status: status is None (0).
      if (statusOperand(U->getSubExpr()))
        return true;
    }
    return std::nullopt;
  }
  auto Compare = [&](const Expr *L, const Expr *R,
                     BinaryOperatorKind Op) -> std::optional<bool> {
    const GuardApi *G = statusOperand(L);
    if (!G || !isNoneValue(R, *G))
      return std::nullopt;
    if (Op == BO_EQ)
      return true;
    if (Op == BO_NE)
      return false;
    return std::nullopt;
  };
  if (const auto *B = dyn_cast<BinaryOperator>(Cond)) {
    if (auto V = Compare(B->getLHS(), B->getRHS(), B->getOpcode()))
      return V;
    return Compare(B->getRHS(), B->getLHS(), B->getOpcode());
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Cond)) {
    if (Op->getNumArgs() == 2) {
      BinaryOperatorKind K =
          Op->getOperator() == OO_EqualEqual
              ? BO_EQ
              : (Op->getOperator() == OO_ExclaimEqual ? BO_NE : BO_Comma);
      if (auto V = Compare(Op->getArg(0), Op->getArg(1), K))
        return V;
      return Compare(Op->getArg(1), Op->getArg(0), K);
    }
  }
  // `if (status)`: the status is not None on the true branch.
  if (statusOperand(Cond))
    return false;
  return std::nullopt;
}

} // namespace capture_lint
