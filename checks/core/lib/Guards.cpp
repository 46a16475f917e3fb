//===- Guards.cpp - Recognise "is this stream capturing?" checks ----------===//

#include "capture_lint/Guards.h"
#include "capture_lint/AstUtil.h"
#include "capture_lint/StaticState.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace capture_lint {

std::string queriedStream(const CallExpr *Call) {
  for (const Expr *Arg : Call->arguments()) {
    std::string Type = Arg->IgnoreParenImpCasts()->getType().getAsString();
    if (llvm::StringRef(Type).contains_insensitive("stream") &&
        !llvm::StringRef(Type).contains_insensitive("status") &&
        !llvm::StringRef(Type).contains_insensitive("mode"))
      return streamKey(Arg);
  }
  return "";
}

namespace {
class StatusVarCollector : public RecursiveASTVisitor<StatusVarCollector> {
public:
  StatusVarCollector(const Catalog &Cat,
                     llvm::DenseMap<const ValueDecl *, const GuardApi *> &Out,
                     llvm::DenseMap<const ValueDecl *, std::string> &Streams)
      : Cat(Cat), Out(Out), Streams(Streams) {}

  bool VisitCallExpr(CallExpr *Call) {
    const GuardApi *G = Cat.findGuard(listedName(directCallee(Call), Cat));
    if (!G || G->StatusArg < 0 ||
        static_cast<unsigned>(G->StatusArg) >= Call->getNumArgs())
      return true;
    if (const ValueDecl *V = baseDeclOf(Call->getArg(G->StatusArg))) {
      Out[V] = G;
      std::string Key = queriedStream(Call);
      auto [It, New] = Streams.try_emplace(V, Key);
      if (!New && It->second != Key)
        It->second.clear(); // queried about several streams: unknown
    }
    return true;
  }
  // A lambda's body is its own function.
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

private:
  const Catalog &Cat;
  llvm::DenseMap<const ValueDecl *, const GuardApi *> &Out;
  llvm::DenseMap<const ValueDecl *, std::string> &Streams;
};
} // namespace

namespace {
/// Bool variables initialised or assigned from a guard condition, and
/// pointers from a capture lookup (`CaptureInfo *c = get_capture_info(s);`).
class BoolVarCollector : public RecursiveASTVisitor<BoolVarCollector> {
public:
  BoolVarCollector(const GuardRecognizer &G,
                   llvm::DenseMap<const ValueDecl *, bool> &Out,
                   llvm::DenseMap<const ValueDecl *, std::string> &Streams)
      : G(G), Out(Out), Streams(Streams) {}

  bool VisitVarDecl(VarDecl *VD) {
    if (holdsAnswer(VD->getType()) && VD->getInit())
      record(VD, VD->getInit());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->getOpcode() == BO_Assign && holdsAnswer(B->getType()))
      if (const ValueDecl *V = baseDeclOf(B->getLHS()))
        if (namesDecl(B->getLHS()->IgnoreParenImpCasts(), V))
          record(V, B->getRHS());
    return true;
  }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

private:
  /// A bool, or a pointer from a capture lookup (CapturePredicates.h).
  static bool holdsAnswer(QualType T) {
    return T->isBooleanType() || T->isPointerType();
  }
  void record(const ValueDecl *V, const Expr *Init) {
    if (auto When = G.notCapturingWhen(Init)) {
      Out[V] = *When;
      Streams[V] = G.guardStream(Init);
    }
  }
  const GuardRecognizer &G;
  llvm::DenseMap<const ValueDecl *, bool> &Out;
  llvm::DenseMap<const ValueDecl *, std::string> &Streams;
};
} // namespace

void GuardRecognizer::scan(const Stmt *Body) {
  if (!Body)
    return;
  StatusVarCollector(Cat, StatusVars, StatusStreams)
      .TraverseStmt(const_cast<Stmt *>(Body));
  BoolVarCollector(*this, BoolVars, BoolStreams)
      .TraverseStmt(const_cast<Stmt *>(Body));
}

/// The status or bool variable a guard operand names, if any.
static const ValueDecl *guardVariable(const Expr *E) {
  E = unwrap(E);
  if (!isa_and_nonnull<DeclRefExpr, MemberExpr>(E))
    return nullptr;
  const ValueDecl *V = baseDeclOf(E);
  return V && namesDecl(E, V) ? V : nullptr;
}

/// The operands of a guard condition worth looking at: the condition, the
/// operand of a `!`, both sides of a comparison.
static llvm::SmallVector<const Expr *, 3> guardOperands(const Expr *Cond) {
  llvm::SmallVector<const Expr *, 3> Out;
  if (!Cond)
    return Out;
  Cond = Cond->IgnoreParenImpCasts();
  Out.push_back(Cond);
  if (const auto *U = dyn_cast<UnaryOperator>(Cond))
    Out.push_back(U->getSubExpr());
  if (const auto *B = dyn_cast<BinaryOperator>(Cond))
    Out.append({B->getLHS(), B->getRHS()});
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Cond))
    for (const Expr *A : Op->arguments())
      Out.push_back(A);
  return Out;
}

std::string GuardRecognizer::guardStream(const Expr *Cond) const {
  for (const Expr *E : guardOperands(Cond)) {
    if (const ValueDecl *V = guardVariable(E)) {
      if (auto It = StatusStreams.find(V); It != StatusStreams.end())
        return It->second;
      if (auto It = BoolStreams.find(V); It != BoolStreams.end())
        return It->second;
    }
    if (const auto *Call = dyn_cast<CallExpr>(unwrap(E))) {
      const FunctionDecl *FD = directCallee(Call);
      if (Cat.findGuard(listedName(FD, Cat)) ||
          (Roles && Roles->roleOf(FD) && Roles->roleOf(FD)->TrueWhenCapturing))
        return queriedStream(Call);
    }
  }
  return "";
}

bool GuardRecognizer::isLocalGuardVariable(const ValueDecl *V) const {
  const auto *VD = dyn_cast_or_null<VarDecl>(V);
  return VD && VD->isLocalVarDecl() &&
         (StatusVars.count(V) || BoolVars.count(V));
}

llvm::SmallVector<const ValueDecl *, 2>
GuardRecognizer::localsRead(const Expr *Cond) const {
  llvm::SmallVector<const ValueDecl *, 2> Out;
  for (const Expr *E : guardOperands(Cond))
    if (const ValueDecl *V = guardVariable(E))
      if (isLocalGuardVariable(V) && !llvm::is_contained(Out, V))
        Out.push_back(V);
  return Out;
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
    const GuardApi *G = Cat.findGuard(listedName(directCallee(Call), Cat));
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

bool GuardRecognizer::isOtherStatusValue(const Expr *E,
                                         const GuardApi &G) const {
  const auto *ECD = dyn_cast_or_null<EnumConstantDecl>(namedDeclOf(E));
  if (!ECD || isNoneValue(E, G))
    return false;
  const auto *ED = dyn_cast<EnumDecl>(ECD->getDeclContext());
  if (!ED)
    return false;
  for (const EnumConstantDecl *C : ED->enumerators())
    for (const std::string &N : G.NoneValues)
      if (N == C->getNameAsString() || N == C->getQualifiedNameAsString() ||
          llvm::StringRef(N).ends_with("::" + C->getNameAsString()))
        return true;
  return false;
}

std::optional<bool>
GuardRecognizer::compareStatus(const Expr *L, const Expr *R,
                               BinaryOperatorKind Op) const {
  const GuardApi *G = statusOperand(L);
  if (!G || (Op != BO_EQ && Op != BO_NE))
    return std::nullopt;
  if (isNoneValue(R, *G))
    return Op == BO_EQ;
  // `status == Active`: capturing when true. (An invalidated capture,
  // status Invalidated, then counts as not capturing; its work fails
  // anyway, the capture being already lost.)
  if (isOtherStatusValue(R, *G))
    return Op == BO_NE;
  return std::nullopt;
}

std::optional<bool> GuardRecognizer::statusComparison(const Expr *Cond) const {
  if (const auto *B = dyn_cast<BinaryOperator>(Cond)) {
    if (auto V = compareStatus(B->getLHS(), B->getRHS(), B->getOpcode()))
      return V;
    return compareStatus(B->getRHS(), B->getLHS(), B->getOpcode());
  }
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(Cond);
  if (!Op || Op->getNumArgs() != 2)
    return std::nullopt;
  BinaryOperatorKind K =
      Op->getOperator() == OO_EqualEqual
          ? BO_EQ
          : (Op->getOperator() == OO_ExclaimEqual ? BO_NE : BO_Comma);
  if (auto V = compareStatus(Op->getArg(0), Op->getArg(1), K))
    return V;
  return compareStatus(Op->getArg(1), Op->getArg(0), K);
}

std::optional<bool>
GuardRecognizer::namedFlagNotCapturingWhen(const Expr *Cond) const {
  const ValueDecl *V = baseDeclOf(Cond);
  if (!V || !namesDecl(Cond, V))
    return std::nullopt;
  if (auto It = BoolVars.find(V); It != BoolVars.end())
    return It->second;
  // A capture flag holds while the capture its setter began is active.
  if (Roles && Roles->isCaptureFlag(V))
    return false;
  return std::nullopt;
}

std::optional<bool> GuardRecognizer::notCapturingWhen(const Expr *Cond) const {
  if (!Cond)
    return std::nullopt;
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *Call = dyn_cast<CallExpr>(Cond))
    if (const FunctionRole *R =
            Roles ? Roles->roleOf(directCallee(Call)) : nullptr)
      if (R->TrueWhenCapturing)
        return !*R->TrueWhenCapturing;
  // `registry.empty()`: no registered capture is active.
  if (const clang::VarDecl *Registry = containerOfEmptyTest(Cond))
    if (Roles && Roles->isCaptureRegistry(Registry))
      return true;
  if (isa<DeclRefExpr, MemberExpr>(Cond))
    if (auto V = namedFlagNotCapturingWhen(Cond))
      return V;
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
  if (auto V = statusComparison(Cond))
    return V;
  // `if (status)`: the status is not None on the true branch.
  if (statusOperand(Cond))
    return false;
  return std::nullopt;
}

} // namespace capture_lint
