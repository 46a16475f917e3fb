//===- UncheckedEnd.cpp - capture-unchecked-end ---------------------------===//
//
// A call of a capture's end (the catalog's end APIs that return a status:
// cudaStreamEndCapture, hipStreamEndCapture, cuStreamEndCapture) or of a
// graph instantiation (the catalog's graph_instantiations) whose result is
// discarded, or stored in a local that nothing reads. When the capture
// failed (a call in it invalidated it, a forked stream was not joined), the
// end returns an error and a null graph, and instantiating that fails; code
// that ignores both launches a null exec, or the one an earlier capture
// left, so the failure shows up far from its cause, or replays run stale
// work without an error.
//
// Not reported: a result cast to void (discarded on purpose), one passed to
// anything (a check macro, EXPECT_EQ, a function), returned, or tested, or
// read through the thread's last error by the next statement
// (`cudaCheckErrors("...")` around cudaGetLastError); and
// an end whose graph (an instantiation whose exec) is a local that nothing
// names after the call: an end made only to stop the capture on an error
// path, whose result does not matter.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

#include "capture_lint/AstUtil.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace capture_lint::rules {
namespace {

/// \p E without the implicit nodes around it, going up: the parent that
/// uses its value, and the child of that parent it came through.
std::pair<const Stmt *, const Stmt *> userOf(const Expr *E,
                                             const ParentMap &PM) {
  const Stmt *Child = E;
  const Stmt *P = PM.getParent(E);
  while (P && (isa<ImplicitCastExpr>(P) || isa<ParenExpr>(P) ||
               isa<ExprWithCleanups>(P) || isa<CXXBindTemporaryExpr>(P) ||
               isa<MaterializeTemporaryExpr>(P))) {
    Child = P;
    P = PM.getParent(P);
  }
  return {P, Child};
}

/// Whether \p Child, a statement of \p Parent, is evaluated for its effect
/// only (a statement of a block, a branch, a loop's body).
bool statementOf(const Stmt *Parent, const Stmt *Child) {
  if (!Parent || isa<CompoundStmt>(Parent) || isa<LabelStmt>(Parent) ||
      isa<SwitchCase>(Parent))
    return true;
  if (const auto *If = dyn_cast<IfStmt>(Parent))
    return Child == If->getThen() || Child == If->getElse();
  if (const auto *For = dyn_cast<ForStmt>(Parent))
    return Child == For->getBody() || Child == For->getInc() ||
           Child == For->getInit();
  if (const auto *While = dyn_cast<WhileStmt>(Parent))
    return Child == While->getBody();
  if (const auto *Do = dyn_cast<DoStmt>(Parent))
    return Child == Do->getBody();
  return false;
}

/// Whether \p Body reads \p V anywhere (a use that is not the left side of
/// a plain assignment).
bool readsVariable(const Stmt *Body, const VarDecl *V, const ParentMap &PM) {
  bool Read = false;
  walkStatements(Body, [&](const Stmt *S) {
    const auto *Ref = dyn_cast<DeclRefExpr>(S);
    if (Read || !Ref || Ref->getDecl() != V)
      return !Read;
    const auto *Assign = dyn_cast_or_null<BinaryOperator>(PM.getParent(Ref));
    Read = !(Assign && Assign->getOpcode() == BO_Assign &&
             Assign->getLHS() == Ref);
    return !Read;
  });
  return Read;
}

/// How the result of \p Call is left unchecked ("is discarded", "is stored
/// in 'err', which nothing reads"), or nothing when the code uses it.
std::optional<std::string> unchecked(const CallExpr *Call, const Stmt *Body,
                                     const ParentMap &PM) {
  auto [User, Child] = userOf(Call, PM);
  // The left side of a comma is evaluated for its effect only.
  if (const auto *Comma = dyn_cast_or_null<BinaryOperator>(User);
      Comma && Comma->getOpcode() == BO_Comma && Child == Comma->getLHS())
    return std::string("is discarded");
  if (statementOf(User, Child))
    return std::string("is discarded");
  const VarDecl *Stored = nullptr;
  if (const auto *Assign = dyn_cast<BinaryOperator>(User);
      Assign && Assign->getOpcode() == BO_Assign && Child == Assign->getRHS())
    if (const auto *Ref =
            dyn_cast<DeclRefExpr>(Assign->getLHS()->IgnoreParenImpCasts()))
      Stored = dyn_cast<VarDecl>(Ref->getDecl());
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(User);
      DS && DS->isSingleDecl())
    Stored = dyn_cast<VarDecl>(DS->getSingleDecl());
  if (Stored && Stored->hasLocalStorage() &&
      !Stored->getType()->isReferenceType() && !readsVariable(Body, Stored, PM))
    return "is stored in '" + Stored->getNameAsString() +
           "', which nothing reads";
  return std::nullopt;
}

/// Whether what \p Call makes (the graph an end writes, the exec an
/// instantiation writes) is used after it: false when each `&local` it
/// writes is not named again after the call (an end made only to stop the
/// capture on an error path, its graph dropped).
bool resultUsedAfter(const CallExpr *Call, const Stmt *Body,
                     const SourceManager &SM) {
  bool Written = false, Used = false;
  for (const Expr *Arg : Call->arguments()) {
    const auto *Addr = dyn_cast<UnaryOperator>(Arg->IgnoreParenImpCasts());
    const auto *Ref =
        Addr && Addr->getOpcode() == UO_AddrOf
            ? dyn_cast<DeclRefExpr>(Addr->getSubExpr()->IgnoreParenImpCasts())
            : nullptr;
    const auto *Local = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!Local || !Local->hasLocalStorage()) {
      if (Arg->getType()->isPointerType() &&
          Arg->getType()->getPointeeType()->isPointerType())
        return true; // written through a pointer the function was given
      continue;
    }
    Written = true;
    walkStatements(Body, [&](const Stmt *S) {
      if (const auto *R = dyn_cast<DeclRefExpr>(S);
          R && R->getDecl() == Local &&
          SM.isBeforeInTranslationUnit(Call->getEndLoc(), R->getBeginLoc()))
        Used = true;
      return !Used;
    });
  }
  return !Written || Used;
}

/// The statement after the one \p Call is in, in their block, if any.
const Stmt *nextStatement(const CallExpr *Call, const ParentMap &PM) {
  const Stmt *Child = Call;
  for (const Stmt *P = PM.getParent(Call); P; Child = P, P = PM.getParent(P)) {
    const auto *Block = dyn_cast<CompoundStmt>(P);
    if (!Block)
      continue;
    for (auto It = Block->body_begin(); It != Block->body_end(); ++It)
      if (*It == Child)
        return std::next(It) == Block->body_end() ? nullptr : *std::next(It);
    return nullptr;
  }
  return nullptr;
}

/// Whether the statement after \p Call reads the thread's last error and
/// uses it (`cudaCheckErrors("...")`, a macro around cudaGetLastError): the
/// runtime's last error is the result of \p Call then, so it is checked.
bool lastErrorReadAfter(const CallExpr *Call, const Stmt *Body,
                        const ParentMap &PM, const Catalog &Cat) {
  const Stmt *Next = nextStatement(Call, PM);
  if (!Next)
    return false;
  bool Read = false;
  walkStatements(Next, [&](const Stmt *S) {
    const auto *C = dyn_cast<CallExpr>(S);
    const FunctionDecl *F = C ? directCallee(C) : nullptr;
    if (F && Cat.listed(NameList::LastErrorReads, catalogName(F)) &&
        !unchecked(C, Body, PM))
      Read = true;
    return !Read;
  });
  return Read;
}

/// The region \p Call belongs to: the one it ends, else the last one begun
/// before it.
const CaptureRegion &regionOf(const CallExpr *Call,
                              const std::vector<CaptureRegion> &Regions,
                              const SourceManager &SM) {
  const CaptureRegion *Best = &Regions.front();
  for (const CaptureRegion &R : Regions) {
    if (llvm::is_contained(R.Ends, Call->getBeginLoc()))
      return R;
    if (R.BeginLoc.isValid() &&
        SM.isBeforeInTranslationUnit(R.BeginLoc, Call->getBeginLoc()))
      Best = &R;
  }
  return *Best;
}

/// A finding in a closer (a function that ends the capture its callers
/// begin), whose note names the function instead of a begin.
ClangFinding closerFinding(const FunctionRuleInput &In, SourceLocation Loc,
                           std::string Message) {
  ClangFinding F;
  F.Check = CheckKind::UncheckedEnd;
  F.Loc = Loc;
  F.Message = std::move(Message);
  // The part of the capture this function runs starts where it does.
  F.RegionBegin = fileLoc(In.Def->getLocation(), In.Ctx.getSourceManager());
  F.Notes.push_back({F.RegionBegin, "'" + displayName(In.Def) +
                                        "' ends a capture its callers begin"});
  return F;
}

std::string message(const std::string &Name, bool End, const std::string &How) {
  std::string Head = "the result of '" + Name + "' " + How + ": ";
  if (End)
    return Head +
           "when the capture failed (a call in it invalidated it, or a "
           "forked stream was not joined) the end returns an error and a "
           "null graph, and the code goes on to instantiate and launch a "
           "graph that holds none of this work, or one an earlier capture "
           "left; check the result (CUDA_CHECK, an if that handles the "
           "failure) before the graph is instantiated or launched";
  return Head + "instantiating the null graph a failed capture leaves "
                "fails, and the exec stays null or the one an earlier "
                "instantiation made, so launches fail far from the cause or "
                "replay stale work; check the result before the graph is "
                "launched";
}

} // namespace

std::vector<ClangFinding> uncheckedEnd(const FunctionRuleInput &In) {
  std::vector<ClangFinding> Out;
  const auto &Regions = In.RF.regions();
  const Stmt *Body = In.Def->getBody();
  bool Closer = In.Own && In.Own->Closes;
  if ((Regions.empty() && !Closer) || !Body)
    return Out;
  ParentMap PM(const_cast<Stmt *>(Body));
  // Code no path reaches (`if (ENABLE_GRAPHS)` on a constant false) ends
  // nothing.
  auto Unreached = In.RF.unreachedStatements();
  walkStatements(Body, [&](const Stmt *S) {
    const auto *Call = dyn_cast<CallExpr>(S);
    const FunctionDecl *Callee = Call ? directCallee(Call) : nullptr;
    if (!Callee || Callee->getReturnType()->isVoidType() ||
        Unreached.count(Call))
      return true;
    std::string Name = catalogName(Callee);
    const RegionApi *Api = In.Cat.findRegionApi(Name);
    bool End = Api && Api->Kind == RegionApi::End;
    if (!End && !In.Cat.listed(NameList::GraphInstantiations, Name))
      return true;
    std::optional<std::string> How = unchecked(Call, Body, PM);
    if (!How || !resultUsedAfter(Call, Body, In.Ctx.getSourceManager()) ||
        lastErrorReadAfter(Call, Body, PM, In.Cat))
      return true;
    ClangFinding F =
        Regions.empty()
            ? closerFinding(In, callLoc(Call),
                            message(Callee->getNameAsString(), End, *How))
            : regionFinding(CheckKind::UncheckedEnd,
                            regionOf(Call, Regions, In.Ctx.getSourceManager()),
                            callLoc(Call),
                            message(Callee->getNameAsString(), End, *How),
                            In.Ctx);
    F.Level = Severity::Warning; // the graph may still be right
    F.Api = Name;
    Out.push_back(std::move(F));
    return true;
  });
  return Out;
}

} // namespace capture_lint::rules
