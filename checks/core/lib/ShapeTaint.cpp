//===- ShapeTaint.cpp - Values that come from shapes or the device --------===//

#include "capture_lint/ShapeTaint.h"
#include "capture_lint/ApiMatch.h"
#include "capture_lint/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace capture_lint {

namespace {
/// Collects every write to a local variable (initialisations and
/// assignments) and every device-to-host copy destination in a body.
class WriteCollector : public RecursiveASTVisitor<WriteCollector> {
public:
  struct Write {
    const VarDecl *Var;
    const Expr *Value;
    SourceLocation Loc;
  };
  WriteCollector(const ASTContext &Ctx, const Catalog &Cat,
                 const llvm::DenseSet<const Stmt *> *GuardedCalls)
      : Ctx(Ctx), Cat(Cat), GuardedCalls(GuardedCalls) {}

  bool VisitVarDecl(VarDecl *V) {
    if (V->hasLocalStorage() && V->getInit())
      Writes.push_back({V, V->getInit(), V->getLocation()});
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp())
      record(B->getLHS(), B->getRHS(), B->getOperatorLoc());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
    if (Op->isAssignmentOp() && Op->getNumArgs() == 2)
      record(Op->getArg(0), Op->getArg(1), Op->getOperatorLoc());
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (GuardedCalls && GuardedCalls->count(Call))
      return true;
    if (const ApiEntry *E = matchApi(Call, Cat))
      if (const ValueDecl *V = deviceToHostDestination(Call, *E, Ctx))
        CopyDestinations.try_emplace(V, Call->getBeginLoc());
    return true;
  }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

  std::vector<Write> Writes;
  llvm::DenseMap<const ValueDecl *, SourceLocation> CopyDestinations;

private:
  void record(const Expr *LHS, const Expr *RHS, SourceLocation Loc) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(LHS->IgnoreParenImpCasts()))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        if (V->hasLocalStorage())
          Writes.push_back({V, RHS, Loc});
  }
  const ASTContext &Ctx;
  const Catalog &Cat;
  const llvm::DenseSet<const Stmt *> *GuardedCalls;
};
} // namespace

/// A call returning a status code (an enum such as cudaError_t,
/// ncclResult_t, cublasStatus_t): whatever its arguments, the value it
/// returns is the host's, not data from the device.
static bool returnsStatusCode(const CallExpr *Call) {
  return Call->getType()->isEnumeralType();
}

ShapeTaint::ShapeTaint(const Stmt *Body, const ASTContext &Ctx,
                       const Catalog &Cat, const AnalysisOptions &Opts,
                       unsigned Depth,
                       const llvm::DenseSet<const Stmt *> *GuardedCalls)
    : Ctx(Ctx), Cat(Cat), Opts(Opts), Depth(Depth) {
  if (!Body)
    return;
  WriteCollector C(Ctx, Cat, GuardedCalls);
  C.TraverseStmt(const_cast<Stmt *>(Body));
  DeviceCopyDestinations = std::move(C.CopyDestinations);
  // Propagate through variables until nothing changes; each round taints at
  // least one more variable, so this ends after at most |Writes| rounds.
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (const auto &W : C.Writes) {
      if (Tainted.count(W.Var))
        continue;
      if (auto S = dependency(W.Value)) {
        VarTaint T;
        T.Origin = S->VarOrigin.empty() ? S->What : S->VarOrigin;
        T.DeviceValue = S->DeviceValue;
        T.Loc = W.Loc;
        Tainted[W.Var] = T;
        Changed = true;
      }
    }
  }
}

bool ShapeTaint::isShapeCall(const CallExpr *Call) const {
  const auto *M = dyn_cast<CXXMemberCallExpr>(Call);
  if (!M || !M->getMethodDecl())
    return false;
  const CXXMethodDecl *MD = M->getMethodDecl();
  if (!MD->getIdentifier() ||
      llvm::find(Opts.ShapeFunctions, MD->getName().str()) ==
          Opts.ShapeFunctions.end())
    return false;
  auto IsTensorClass = [&](const CXXRecordDecl *RD) {
    std::string Name = RD->getQualifiedNameAsString();
    return llvm::find(Opts.TensorClasses, Name) != Opts.TensorClasses.end();
  };
  const CXXRecordDecl *RD = MD->getParent();
  if (IsTensorClass(RD))
    return true;
  if (!RD->hasDefinition())
    return false;
  bool Found = false;
  RD->forallBases([&](const CXXRecordDecl *Base) {
    if (IsTensorClass(Base))
      Found = true;
    return true;
  });
  return Found;
}

std::optional<ShapeTaint::Source>
ShapeTaint::directSource(const Expr *E) const {
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    if (isShapeCall(Call))
      return Source{"'" + catalogName(directCallee(Call)) + "'", false, {}, ""};
    if (returnsStatusCode(Call))
      return std::nullopt; // cudaError_t, ncclResult_t...: a host value
    if (const ApiEntry *Entry = matchApi(Call, Cat)) {
      if (Entry->Class == Hazard::ShapeQuery)
        return Source{"'" + Entry->Display + "'", false, {}, ""};
      if (Entry->Class == Hazard::HostRead)
        return Source{"'" + Entry->Display + "'", true, {}, ""};
    } else if (auto S = returnSource(directCallee(Call))) {
      return S;
    }
  }
  // Reading a copy destination's data: `x` for a scalar, `p[i]`, `*p`,
  // `v[i]` for buffers. Passing the pointer on reads nothing.
  const ValueDecl *Read = nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
      auto It = Tainted.find(V);
      if (It != Tainted.end())
        return Source{"'" + V->getNameAsString() + "'", It->second.DeviceValue,
                      It->second.Loc, It->second.Origin};
    }
  }
  if (isa<DeclRefExpr>(E) || isa<MemberExpr>(E)) {
    const ValueDecl *D = accessedDeclOf(E);
    if (D && namesDecl(E, D) && !D->getType()->isPointerType() &&
        !D->getType()->isArrayType() && !D->getType()->isRecordType())
      Read = D;
  } else if (isa<ArraySubscriptExpr>(E) ||
             (isa<UnaryOperator>(E) &&
              cast<UnaryOperator>(E)->getOpcode() == UO_Deref) ||
             (isa<CXXOperatorCallExpr>(E) &&
              cast<CXXOperatorCallExpr>(E)->getOperator() == OO_Subscript)) {
    Read = accessedDeclOf(E);
  }
  if (Read) {
    auto It = DeviceCopyDestinations.find(Read);
    if (It != DeviceCopyDestinations.end())
      return Source{"'" + Read->getNameAsString() + "'", true, It->second,
                    "the device-to-host copy"};
  }
  return std::nullopt;
}

std::optional<ShapeTaint::Source>
ShapeTaint::returnSource(const FunctionDecl *FD) const {
  const FunctionDecl *Def = nullptr;
  if (!FD || Depth >= 3 || !FD->hasBody(Def) || !Def ||
      !(Def->getReturnType()->isArithmeticType() ||
        Def->getReturnType()->isEnumeralType()) ||
      Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
    return std::nullopt;
  auto [It, New] = ReturnSources.try_emplace(Def, std::nullopt);
  if (!New)
    return It->second; // known, or being computed (recursion)
  ShapeTaint Inner(Def->getBody(), Ctx, Cat, Opts, Depth + 1);
  std::optional<Source> Found;
  llvm::SmallVector<const Stmt *, 32> Work = {Def->getBody()};
  while (!Work.empty() && !Found) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (const auto *Ret = dyn_cast<ReturnStmt>(S))
      if (auto Src = Inner.dependency(Ret->getRetValue()))
        Found = Source{"'" + displayName(Def) + "'", Src->DeviceValue,
                       Ret->getBeginLoc(),
                       Src->VarOrigin.empty() ? Src->What : Src->VarOrigin};
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return ReturnSources[Def] = Found;
}

std::optional<ShapeTaint::Source> ShapeTaint::dependency(const Expr *E) const {
  if (!E)
    return std::nullopt;
  if (auto S = directSource(E))
    return S;
  if (const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
      Call && returnsStatusCode(Call))
    return std::nullopt;
  if (isa<LambdaExpr>(E))
    return std::nullopt;
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_AddrOf)
    return std::nullopt; // taking an address reads nothing
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (auto S = dependency(CE))
        return S;
  return std::nullopt;
}

} // namespace capture_lint
