//===- RoleAnalyzer.cpp - Roles of user functions -------------------------===//
//
// Computes FunctionRole for user functions (FunctionRoles.h): from
// annotations and the catalog's "functions" section first, then from the
// body (an opener leaves a capture active at return, a closer ends one it
// did not begin, a wrapper invokes a parameter while its capture is active,
// a capture predicate returns a guard condition). A cheap syntactic
// prefilter (mayHaveRole) keeps functions that reach no begin, end, guard or
// role-bearing call out of the CFG work.
//
//===----------------------------------------------------------------------===//

#include "RoleAnalyzer.h"
#include "CapturePredicates.h"
#include "ImportedRole.h"

#include "capture_lint/Analysis.h"
#include "capture_lint/AstUtil.h"
#include "capture_lint/Guards.h"
#include "capture_lint/StaticState.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace capture_lint {

/// True when \p FD (or a redeclaration) carries an annotation or a catalog
/// "functions" entry.
static bool hasDeclaredRole(const FunctionDecl *FD, const Catalog &Cat) {
  for (const FunctionDecl *R : FD->redecls())
    for (const auto *A : R->specific_attrs<AnnotateAttr>())
      if (A->getAnnotation().starts_with(annotation::Prefix))
        return true;
  return Cat.findFunction(listedName(FD, Cat)) != nullptr;
}

bool RoleAnalyzer::mayHaveRole(const FunctionDecl *FD) {
  if (!FD)
    return false;
  FD = FD->getCanonicalDecl();
  auto It = MayHaveRole.find(FD);
  if (It != MayHaveRole.end())
    return It->second;
  MayHaveRole[FD] = false; // cycles: no role through recursion alone
  bool Result = hasDeclaredRole(FD, Cat) || importedRole(FD);
  const FunctionDecl *Def = nullptr;
  if (!Result && FD->hasBody(Def) && Def && !inToolchainCode(Def)) {
    llvm::SmallVector<const Stmt *, 32> Work = {Def->getBody()};
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
      for (const CXXCtorInitializer *I : Ctor->inits())
        Work.push_back(I->getInit());
    while (!Work.empty() && !Result) {
      const Stmt *S = Work.pop_back_val();
      if (!S)
        continue;
      const FunctionDecl *Callee = nullptr;
      if (const auto *Call = dyn_cast<CallExpr>(S))
        Callee = directCallee(Call);
      else if (const auto *C = dyn_cast<CXXConstructExpr>(S))
        Callee = C->getConstructor();
      if (const auto *Call = dyn_cast<CallExpr>(S);
          Call && (!Callee || isa<CXXOperatorCallExpr>(Call))) {
        // A held callable: what it was given (a scope guard's lambda).
        if (!Targets)
          Targets = std::make_unique<CallTargets>(Ctx);
        for (const FunctionDecl *F : Targets->indirectTargets(Call))
          Result = Result || mayHaveRole(F);
      }
      if (Callee) {
        std::string Name = listedName(Callee, Cat);
        if (Cat.findRegionApi(Name) || Cat.findGuard(Name) ||
            mayHaveRole(Callee))
          Result = true;
        if (const auto *C = dyn_cast<CXXConstructExpr>(S))
          if (const CXXRecordDecl *RD = C->getConstructor()->getParent())
            if (RD->getDestructor() && mayHaveRole(RD->getDestructor()))
              Result = true;
      }
      // A predicate reading a capture flag (`return capturing_;`).
      if (const auto *E = dyn_cast<Expr>(S);
          E && isa<DeclRefExpr, MemberExpr>(E) && E->getType()->isBooleanType())
        if (const ValueDecl *V = baseDeclOf(E); V && namesDecl(E, V))
          Result = Result || isCaptureFlag(V);
      for (const Stmt *C : S->children())
        Work.push_back(C);
    }
  }
  MayHaveRole[FD] = Result;
  return Result;
}

const SummaryRole *RoleAnalyzer::importedRole(const FunctionDecl *FD) const {
  if (!Imports || Imports->empty() || FD->isDefined())
    return nullptr;
  std::string Usr = usrOf(FD);
  if (Usr.empty())
    return nullptr;
  auto It = Imports->find(Usr);
  return It == Imports->end() ? nullptr : &It->second;
}

const ApiEntry *RoleAnalyzer::declaredEntry(FunctionNote::Role Kind) {
  return declaredApiEntry(Kind == FunctionNote::Synchronizes ? "synchronizes"
                          : Kind == FunctionNote::Allocates  ? "allocates"
                          : Kind == FunctionNote::ReadsBack  ? "reads-back"
                                                             : "");
}

static std::unique_ptr<ApiEntry> makeDeclaredEntry(const char *Name, Hazard H,
                                                   Behaviour Relaxed,
                                                   const char *Message,
                                                   const char *Fix) {
  auto E = std::make_unique<ApiEntry>();
  E->Name = Name;
  E->Display = Name;
  E->Class = H;
  E->Modes = {Behaviour::Illegal, Behaviour::Illegal, Relaxed};
  E->Message = Message;
  E->Fix = Fix;
  E->Source = "capture_lint annotation or .capture-lint.json 'functions'";
  return E;
}

const ApiEntry *declaredApiEntry(llvm::StringRef Name) {
  static const std::unique_ptr<ApiEntry> Entries[] = {
      makeDeclaredEntry("synchronizes", Hazard::Sync, Behaviour::Illegal,
                        "synchronizes",
                        "call it before the capture begins or after it ends"),
      makeDeclaredEntry("allocates", Hazard::Allocation, Behaviour::Eager,
                        "allocates device memory",
                        "allocate before the capture begins, or use "
                        "cudaMallocAsync on the capturing stream"),
      makeDeclaredEntry("reads-back", Hazard::HostRead, Behaviour::Illegal,
                        "reads a device value back to the host",
                        "keep the value on the device (a device-side "
                        "predicate or a conditional node)"),
  };
  for (const auto &E : Entries)
    if (E->Name == Name)
      return E.get();
  return nullptr;
}

/// How a region of \p RF is described to callers of the function.
static OpenedCapture openedCaptureOf(const CaptureRegion &R,
                                     const FunctionDecl *Fn) {
  OpenedCapture O;
  O.Api = R.Api;
  O.Mode = R.Mode;
  O.ModeParam = R.ModeParam;
  O.StreamParam = R.StreamParam;
  O.Stream = R.Stream;
  if (R.Begin) {
    O.BeginLoc = R.Begin->getBeginLoc();
    return O;
  }
  // Begun by a call to an opener inside: chain through it.
  std::string Callee = "an opener";
  if (const auto *Call = dyn_cast_or_null<CallExpr>(R.BeginStmt))
    Callee = catalogName(directCallee(Call));
  else if (R.Guard)
    Callee = "the constructor of '" + R.Guard->getNameAsString() + "'";
  O.Chain.push_back(
      {R.BeginLoc, "'" + displayName(Fn) + "' calls '" + Callee + "' here"});
  for (size_t I = 0; I + 1 < R.Origin.size(); ++I)
    O.Chain.push_back(R.Origin[I]);
  O.BeginLoc = R.Origin.empty() ? R.BeginLoc : R.Origin.back().Loc;
  return O;
}

/// The constant every return of \p RF's function returns with region \p I
/// open (`return true;`), if they agree.
static std::optional<int64_t> resultWhenOpen(const RegionFinder &RF, unsigned I,
                                             const ASTContext &Ctx) {
  std::optional<int64_t> Out;
  bool Agree = true;
  RF.forEachNormalExit(
      [&](const RegionFinder::NormalExit &X, const FlowState &State) {
        if (!State.Active.test(I))
          return;
        const Expr *V = X.At ? X.At->getRetValue() : nullptr;
        auto C = V ? constantInt(V, Ctx) : std::nullopt;
        if (!C || (Out && *Out != *C))
          Agree = false;
        else
          Out = C;
      });
  return Agree ? Out : std::nullopt;
}

/// A parameter \p Def invokes while a region of its own is active: it
/// wraps the callable its callers pass there.
static void addInvokedWrapped(const RegionFinder &RF, const FunctionDecl *Def,
                              FunctionRole &Role) {
  RF.forEachStatement([&](const Stmt *S, const FlowState &St, bool Term) {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (Term || !Call || !St.Reached || St.Guarded)
      return;
    const ParmVarDecl *P = invokedParam(Call);
    if (!P || P->getDeclContext() != Def)
      return;
    for (unsigned I = 1; I < RF.regions().size(); ++I) {
      if (!St.Active.test(I))
        continue;
      unsigned Index = P->getFunctionScopeIndex();
      for (const WrappedParam &W : Role.Wraps)
        if (W.Index == Index)
          return;
      Role.Wraps.push_back(
          {Index, openedCaptureOf(RF.regions()[I], Def), callLoc(Call), Call});
      return;
    }
  });
}

void RoleAnalyzer::addPassedOnWrapped(const RegionFinder &RF,
                                      const FunctionDecl *Def,
                                      FunctionRole &Role) {
  RF.forEachStatement([&](const Stmt *S, const FlowState &St, bool Term) {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (Term || !Call || !St.Reached || St.Guarded)
      return;
    const FunctionDecl *Inner = directCallee(Call);
    const FunctionRole *InnerRole = Inner ? roleOf(Inner) : nullptr;
    if (!InnerRole)
      return;
    unsigned Shift = argumentOffset(Call, Inner);
    for (const WrappedParam &W : InnerRole->Wraps) {
      if (W.Index + Shift >= Call->getNumArgs())
        continue;
      const ParmVarDecl *P = parameterOf(Call->getArg(W.Index + Shift));
      if (!P || P->getDeclContext() != Def)
        continue;
      unsigned Index = P->getFunctionScopeIndex();
      if (llvm::any_of(Role.Wraps,
                       [&](const WrappedParam &X) { return X.Index == Index; }))
        continue;
      WrappedParam Outer = W;
      Outer.Index = Index;
      Outer.InvokeLoc = callLoc(Call); // "'outer' runs it here", via inner
      Outer.Invoke = nullptr;          // the inner wrapper's arguments
      Outer.Capture.Chain.insert(
          Outer.Capture.Chain.begin(),
          {W.InvokeLoc, "'" + displayName(Inner) + "' runs it here"});
      Role.Wraps.push_back(std::move(Outer));
    }
  });
}

/// Whether \p Def, or a function it calls (two calls down), launches a
/// graph.
static bool launchesGraph(const FunctionDecl *Def, const Catalog &Cat) {
  return bodyHas(
      Def, 2,
      [&](const Stmt *S) {
        const auto *Call = dyn_cast<CallExpr>(S);
        const FunctionDecl *F = Call ? directCallee(Call) : nullptr;
        return F && Cat.listed(NameList::GraphLaunches, F->getNameAsString());
      },
      [](const FunctionDecl *) { return true; });
}

void RoleAnalyzer::roleFromBody(const FunctionDecl *Def, FunctionRole &Role) {
  const Stmt *Body = Def->getBody();
  RegionFinder RF(Def, Body, Ctx, Cat, /*CalleeMode=*/true, this);
  if (!RF.valid())
    return;
  const FlowState &Exit = RF.exitState();
  if (Exit.Reached) {
    // It opens a capture for its callers when it returns with one open
    // that it never ends (`if (ok) return true; return false;`), or whose
    // end is on a side path while its main path (its last exit) leaves it
    // open; an earlier return that leaves open a capture the main path ends
    // is an error path (capture-unended-on-error).
    std::optional<FlowState> Last = RF.lastExitState();
    for (unsigned I = 1; I < RF.regions().size() && !Role.Opens; ++I)
      if (Exit.Active.test(I) &&
          (RF.regions()[I].Ends.empty() || (Last && Last->Active.test(I)))) {
        Role.Opens = openedCaptureOf(RF.regions()[I], Def);
        Role.Opens->ResultWhenOpen = resultWhenOpen(RF, I, Ctx);
      }
    if (Exit.EndedInherited && RF.inheritedClosedBy())
      Role.Closes = RF.inheritedClosedBy();
  }
  // Pause and resume (end the caller's capture, do some work eagerly,
  // begin again before returning): to callers the capture goes on.
  if (Role.Opens && Role.Closes) {
    Role.Opens.reset();
    Role.Closes = nullptr;
    Role.PausesAndResumes = true;
  }
  if (Role.Closes) {
    ClosedGroups.insert(Role.Closes->Group);
    Role.LaunchesGraph = RF.inheritedCloseLaunches() || launchesGraph(Def, Cat);
  }
  addInvokedWrapped(RF, Def, Role);  // wrappers
  addPassedOnWrapped(RF, Def, Role); // nested wrappers
  // Capture predicates and lookups (CapturePredicates.h).
  Role.TrueWhenCapturing = capturePredicateSense(Def, Cat, Ctx, this);
}

void RoleAnalyzer::declare(FunctionRole &Role, const FunctionDecl *FD,
                           FunctionNote::Role Kind, unsigned Argument,
                           const std::string &By) {
  switch (Kind) {
  case FunctionNote::Captured:
    Role.Captured = true;
    break;
  case FunctionNote::Safe:
    Role.Safe = true;
    break;
  case FunctionNote::CapturePredicate:
    Role.TrueWhenCapturing = true;
    break;
  case FunctionNote::Wrapper: {
    WrappedParam W;
    W.Index = Argument;
    W.Capture.BeginLoc = FD->getLocation();
    W.InvokeLoc = FD->getLocation();
    W.Capture.Chain.push_back(
        {FD->getLocation(),
         "'" + catalogName(FD) + "' is declared to run argument " +
             std::to_string(Argument) + " under a capture (" + By + ")"});
    Role.Wraps.push_back(std::move(W));
    break;
  }
  default:
    Role.Declared = declaredEntry(Kind);
    break;
  }
  Role.DeclaredBy = By;
}

/// The role an annotation (include/capture_lint/annotations.h) declares,
/// and for a wrapper the argument it runs.
static std::optional<FunctionNote::Role> annotatedRole(StringRef Text,
                                                       unsigned &Argument) {
  if (Text == annotation::Captured)
    return FunctionNote::Captured;
  if (Text == annotation::Safe)
    return FunctionNote::Safe;
  if (Text == annotation::Synchronizes)
    return FunctionNote::Synchronizes;
  if (Text == annotation::Allocates)
    return FunctionNote::Allocates;
  if (Text == annotation::ReadsBack)
    return FunctionNote::ReadsBack;
  if (Text == annotation::CapturePredicate)
    return FunctionNote::CapturePredicate;
  if (Text.consume_front(annotation::WrapperPrefix) &&
      !Text.trim().getAsInteger(10, Argument))
    return FunctionNote::Wrapper;
  return std::nullopt;
}

FunctionRole RoleAnalyzer::computeRole(const FunctionDecl *FD) {
  FunctionRole Role;
  // Declared roles: annotations on any declaration, then the catalog.
  for (const FunctionDecl *R : FD->redecls())
    for (const auto *A : R->specific_attrs<AnnotateAttr>()) {
      unsigned Argument = 0;
      if (auto Kind = annotatedRole(A->getAnnotation(), Argument))
        declare(Role, FD, *Kind, Argument,
                "annotation " + A->getAnnotation().str());
    }
  if (const FunctionNote *N = Cat.findFunction(listedName(FD, Cat)))
    declare(Role, FD, N->Kind, N->Argument, "'functions' entry in " + N->File);
  if (Role.any())
    return Role;

  if (const SummaryRole *Imported = importedRole(FD))
    return roleFromSummary(*Imported, FD, Cat, Ctx.getSourceManager(), Imports);
  const FunctionDecl *Def = nullptr;
  if (FD->hasBody(Def) && Def && mayHaveRole(Def) && !inToolchainCode(Def))
    roleFromBody(Def, Role);
  return Role;
}

const FunctionRole *RoleAnalyzer::roleOf(const FunctionDecl *FD) {
  if (!FD)
    return nullptr;
  FD = FD->getCanonicalDecl();
  auto It = Roles.find(FD);
  if (It != Roles.end())
    return It->second.get();
  if (!mayHaveRole(FD) || !RolesInProgress.insert(FD).second)
    return nullptr;
  FunctionRole Role = computeRole(FD);
  RolesInProgress.erase(FD);
  auto &Slot = Roles[FD];
  if (Role.any())
    Slot = std::make_unique<FunctionRole>(std::move(Role));
  return Slot.get();
}

/// For each value \p Collect finds in a user function's body (it calls its
/// second argument with each), the functions it was found in.
template <typename Value, typename CollectFn>
static void
indexUserBodies(const ASTContext &Ctx,
                llvm::DenseMap<Value, std::vector<const FunctionDecl *>> &Out,
                CollectFn Collect) {
  forEachUserDecl(Ctx, /*IntoClassTemplates=*/true, [&](const Decl *D) {
    const FunctionDecl *FD = D->getAsFunction();
    if (!FD || !FD->doesThisDeclarationHaveABody())
      return;
    Collect(FD->getBody(), [&](Value V) {
      if (!llvm::is_contained(Out[V], FD))
        Out[V].push_back(FD);
    });
  });
}

bool RoleAnalyzer::isCaptureRegistry(const VarDecl *V) {
  if (!V)
    return false;
  V = V->getCanonicalDecl();
  if (auto It = Registries.find(V); It != Registries.end())
    return It->second;
  Registries[V] = false; // asked again while answering: not (yet) known
  if (!Inserters) {
    Inserters.emplace();
    indexUserBodies<const VarDecl *>(
        Ctx, *Inserters, [](const Stmt *Body, auto Found) {
          for (const VarDecl *V : insertedStatics(Body))
            Found(V);
        });
  }
  bool Result = false;
  if (auto It = Inserters->find(V); It != Inserters->end())
    for (const FunctionDecl *FD : It->second)
      if (const FunctionRole *R = roleOf(FD); R && R->Opens)
        Result = true;
  Registries[V] = Result;
  return Result;
}

/// The member or static \p LHS names (not a local), or null.
static const ValueDecl *flagTarget(const Expr *LHS) {
  LHS = LHS->IgnoreParenImpCasts();
  if (const auto *M = dyn_cast<MemberExpr>(LHS))
    return dyn_cast<FieldDecl>(M->getMemberDecl());
  if (const auto *DRE = dyn_cast<DeclRefExpr>(LHS))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->hasGlobalStorage())
      return VD->getCanonicalDecl();
  return nullptr;
}

/// Calls \p Found with each bool member or static \p Body sets to true.
template <typename FoundFn>
static void trueAssignments(const Stmt *Body, const ASTContext &Ctx,
                            FoundFn Found) {
  llvm::SmallVector<const Stmt *, 32> Work = {Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *B = dyn_cast<BinaryOperator>(S);
        B && B->getOpcode() == BO_Assign && B->getType()->isBooleanType())
      if (const ValueDecl *V = flagTarget(B->getLHS()))
        if (auto C = constantInt(B->getRHS(), Ctx); C && *C != 0)
          Found(V);
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
}

/// Whether \p FD's body begins a capture itself (a catalog begin, or a call
/// to an opener), whatever else it does.
static bool beginsCapture(const FunctionDecl *FD, const Catalog &Cat,
                          RoleOracle &Roles) {
  if (const FunctionRole *R = Roles.roleOf(FD); R && R->Opens)
    return true;
  llvm::SmallVector<const Stmt *, 32> Work = {FD->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      const RegionApi *Api =
          Cat.findRegionApi(listedName(directCallee(Call), Cat));
      if (Api && Api->Kind == RegionApi::Begin)
        return true;
    }
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return false;
}

const FunctionRole *RoleAnalyzer::indirectCloser(const CallExpr *Call) {
  if (!Call || directCallee(Call) && !isa<CXXOperatorCallExpr>(Call))
    return nullptr;
  if (!Targets)
    Targets = std::make_unique<CallTargets>(Ctx);
  return sharedCloser(Targets->indirectTargets(Call));
}

const FunctionRole *
RoleAnalyzer::sharedCloser(const std::vector<const FunctionDecl *> &Fns) {
  const FunctionRole *Shared = nullptr;
  for (const FunctionDecl *F : Fns) {
    const FunctionRole *R = roleOf(F);
    if (!R || !R->Closes || R->Opens)
      return nullptr; // one that does not close: the capture may go on
    Shared = Shared ? Shared : R;
  }
  return Shared;
}

const FunctionRole *RoleAnalyzer::guardCloser(const VarDecl *V) {
  const CXXRecordDecl *RD = V ? V->getType()->getAsCXXRecordDecl() : nullptr;
  if (!RD || !RD->getDestructor() || !runsHeldCallable(RD->getDestructor()))
    return nullptr;
  if (!Targets)
    Targets = std::make_unique<CallTargets>(Ctx);
  auto Given = Targets->constructionCallables(V->getInit());
  return Given ? sharedCloser(*Given) : nullptr;
}

bool RoleAnalyzer::isCaptureFlag(const ValueDecl *V) {
  if (!V || !V->getType()->isBooleanType())
    return false;
  if (const auto *VD = dyn_cast<VarDecl>(V))
    V = VD->getCanonicalDecl();
  if (auto It = Flags.find(V); It != Flags.end())
    return It->second;
  Flags[V] = false; // asked again while answering: not (yet) known
  if (!TrueSetters) {
    TrueSetters.emplace();
    indexUserBodies<const ValueDecl *>(Ctx, *TrueSetters,
                                       [&](const Stmt *Body, auto Found) {
                                         trueAssignments(Body, Ctx, Found);
                                       });
  }
  bool Result = false;
  if (auto It = TrueSetters->find(V); It != TrueSetters->end())
    for (const FunctionDecl *FD : It->second)
      Result = Result || beginsCapture(FD, Cat, *this);
  Flags[V] = Result;
  return Result;
}

} // namespace capture_lint
