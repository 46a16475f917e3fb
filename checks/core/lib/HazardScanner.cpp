//===- HazardScanner.cpp - Hazards of statements, following calls -------===//
//
// Looks at one statement at a time, with the region finder's state before
// it, and records what it does under capture as RawHazards: catalog calls
// (and functions declared to synchronize, allocate or read back), legacy
// stream arguments, branches on shapes or device values, host reads of
// captured device-to-host copies. A call to a user function is followed
// into its body (memoized per function, cycle-safe, bounded by
// MaxCallDepth), and the callee's hazards come back with a note per call on
// the way down.
//
//===----------------------------------------------------------------------===//

#include "HazardScanner.h"
#include "FrozenValues.h"
#include "KindDispatch.h"
#include "TuConstants.h"
#include "rules/Rules.h"

#include "capture_lint/ApiMatch.h"
#include "capture_lint/AstUtil.h"
#include "capture_lint/ShapeTaint.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace capture_lint {

bool runsInInheritedRegion(const FlowState &St) {
  return St.Reached && !St.Guarded && St.Active.test(0);
}

static llvm::DenseSet<const CallExpr *> kernelConfigCalls(const Stmt *Body) {
  llvm::DenseSet<const CallExpr *> Out;
  walkStatements(Body, [&](const Stmt *S) {
    if (const auto *K = dyn_cast<CUDAKernelCallExpr>(S))
      Out.insert(K->getConfig());
    return true;
  });
  return Out;
}

void HazardScanner::scanBranch(const Stmt *S, const Scope &Sc,
                               std::vector<RawHazard> &Out) {
  if (auto H = rules::shapeBranch(S, Sc.Taint))
    Out.push_back(std::move(*H));
}

/// Whether \p Call enqueues work whose arguments the graph records: a
/// catalog kernel launch API, or a user function given a stream.
static bool launchesWithArguments(const CallExpr *Call, const ApiEntry *E) {
  if (E)
    return llvm::StringRef(E->Name).contains("LaunchKernel") ||
           llvm::StringRef(E->Name).contains("LaunchCooperativeKernel");
  return rules::passesStream(Call);
}

void HazardScanner::scanFrozenArguments(const CallExpr *Call,
                                        llvm::StringRef Work, const Scope &Sc,
                                        std::vector<RawHazard> &Out) {
  if (Sc.Frozen)
    if (auto H = rules::frozenArgument(Call, Work, *Sc.Frozen))
      Out.push_back(std::move(*H));
}

/// The argument \p Call passes for catalog entry \p E's stream, when
/// it has one and it is given (or its default means the legacy stream).
static const Expr *streamArgument(const CallExpr *Call, const ApiEntry &E,
                                  const FunctionDecl *Callee) {
  if (!E.Stream || E.Stream->Index >= Call->getNumArgs() ||
      E.Stream->Index >= Callee->getNumParams())
    return nullptr;
  // Overloads may put other arguments at that index
  // (cudaMallocAsync(ptr, size, pool, stream)): check the parameter type.
  std::string ParamType =
      Callee->getParamDecl(E.Stream->Index)->getType().getAsString();
  if (!llvm::StringRef(ParamType).contains_insensitive("stream"))
    return nullptr;
  const Expr *Arg = Call->getArg(E.Stream->Index);
  bool Defaulted = isa<CXXDefaultArgExpr>(Arg);
  return !Defaulted || E.Stream->DefaultIsLegacy ? Arg : nullptr;
}

void HazardScanner::scanCatalogCall(const CallExpr *Call,
                                    const FunctionDecl *Callee,
                                    const ApiEntry &E, bool Declared,
                                    const Scope &Sc,
                                    std::vector<RawHazard> &Out) {
  // A wrapper's branch for another kind of memory, beside the branch
  // that frees or allocates stream-ordered (KindDispatch.h).
  bool OtherKindsBranch =
      !Declared && Sc.Depth > 0 && Sc.BesideCapturedForm.count(Call);
  if (auto Check = rules::catalogCallCheck(E, Call, Ctx);
      Check && !OtherKindsBranch) {
    RawHazard H = rules::catalogCall(E, *Check, callLoc(Call));
    // Which stream it is given, where that compares with the region's.
    if (!Declared && Sc.Depth == 0 && E.OtherStreamModes)
      H.StreamKey = queriedStream(Call); // its first stream argument
    if (Declared) {
      H.Api = catalogName(Callee);
      const char *Verb = E.Class == Hazard::Sync         ? "synchronize"
                         : E.Class == Hazard::Allocation ? "allocate"
                                                         : "read back";
      H.Extra.push_back({Callee->getLocation(),
                         "'" + H.Api + "' is declared to " + Verb + " here (" +
                             Roles.roleOf(Callee)->DeclaredBy + ")"});
    }
    Out.push_back(std::move(H));
  }
  const Expr *Stream = streamArgument(Call, E, Callee);
  if (!Stream)
    return;
  if (auto H = rules::legacyStreamArgument(Call, E, Stream, Ctx)) {
    Out.push_back(std::move(*H));
  } else if (Sc.Depth == 0 && E.Class == Hazard::Allocation &&
             E.behaviourIn(CaptureMode::Global) == Behaviour::Captured &&
             !joinedInFunction(Stream, Sc.Fn)) {
    // Captured only on a stream that takes part in the capture; the
    // analyzer compares the stream with the region's.
    if (std::string Key = streamKey(Stream); !Key.empty())
      Out.push_back(rules::otherStreamAllocation(E, callLoc(Call), Key,
                                                 sourceText(Stream, Ctx)));
  }
}

void HazardScanner::scanKernelLaunch(const CUDAKernelCallExpr *K,
                                     const Scope &Sc,
                                     std::vector<RawHazard> &Out) {
  const FunctionDecl *Launched = directCallee(K);
  scanFrozenArguments(K,
                      Launched ? "kernel launch '" +
                                     Launched->getNameAsString() + "'"
                               : "kernel launch",
                      Sc, Out);
  if (auto H = rules::legacyStreamLaunch(K, Cat, Ctx))
    Out.push_back(std::move(*H));
}

bool HazardScanner::analysedElsewhere(const CallExpr *Call, const Scope &Sc) {
  if (Sc.ConfigCalls.count(Call))
    return true; // a kernel launch's configuration: judged with the launch
  if (RegionFinder::regionApiOf(Call, Cat))
    return true; // a region's begin or end
  // A wrapper running its callable: analysed at the wrapper's call sites,
  // where the callable is known.
  if (const ParmVarDecl *P = invokedParam(Call))
    if (const FunctionRole *Own = Roles.roleOf(Sc.Fn))
      for (const WrappedParam &W : Own->Wraps)
        if (W.Index == P->getFunctionScopeIndex())
          return true;
  return false;
}

bool HazardScanner::followIndirect(const CallExpr *Call, const Scope &Sc,
                                   std::vector<RawHazard> &Out) {
  bool Exact = false;
  std::vector<const FunctionDecl *> Indirect =
      Targets.indirectTargets(Call, &Exact);
  for (const FunctionDecl *Target : Indirect) {
    recordExternal(Target, Call, Sc, Out);
    descend(Target, callLoc(Call), Sc, Out, Call);
  }
  if (!Exact)
    recordOverrides(Call, Indirect, Sc, Out);
  return Exact;
}

bool HazardScanner::scanListedCall(const CallExpr *Call,
                                   const FunctionDecl *Callee, const Scope &Sc,
                                   std::vector<RawHazard> &Out) {
  const ApiEntry *Declared = nullptr;
  if (const FunctionRole *Role = Roles.roleOf(Callee)) {
    // Openers and wrappers are analysed on their own; a function vouched
    // safe is not entered. A closer is: its body up to the end is still in
    // the region.
    if (Role->Safe || Role->Opens || !Role->Wraps.empty() ||
        Role->TrueWhenCapturing)
      return true;
    Declared = Role->Declared;
  }
  const ApiEntry *E =
      Declared ? Declared : Cat.findApi(listedName(Callee, Cat));
  if (!E)
    return false;
  if (!Declared && E->hasArgConditions() && !matchApi(Call, Cat))
    return true; // a catalog API, but not in the harmful form
  if (!Declared && E->UnlessCalled && calledInUnit(Call, *E->UnlessCalled))
    return true; // set up elsewhere in this TU (a handle's workspace)
  if (!Declared && launchesWithArguments(Call, E))
    scanFrozenArguments(Call, "'" + E->Display + "'", Sc, Out);
  if (!Declared && E->UntilCuda && Opts.CudaVersion &&
      *Opts.CudaVersion >= *E->UntilCuda)
    return true; // this toolkit captures it
  scanCatalogCall(Call, Callee, *E, Declared != nullptr, Sc, Out);
  return true;
}

void HazardScanner::scanCall(const CallExpr *Call, const Scope &Sc,
                             std::vector<RawHazard> &Out) {
  if (const auto *K = dyn_cast<CUDAKernelCallExpr>(Call))
    return scanKernelLaunch(K, Sc, Out); // the kernel body is device code
  if (analysedElsewhere(Call, Sc))
    return;
  // Virtual calls, function pointers, callables held in members: follow
  // every target the TU shows.
  if (followIndirect(Call, Sc, Out))
    return; // the object's dynamic classes are known: their overriders ran
  const FunctionDecl *Callee = directCallee(Call);
  if (!Callee)
    return;
  if (Cat.findGuard(listedName(Callee, Cat))) {
    scanStatusQuery(Call, Out);
    return;
  }
  if (scanListedCall(Call, Callee, Sc, Out))
    return; // a role or the catalog describes it: do not look inside
  if (launchesWithArguments(Call, nullptr))
    scanFrozenArguments(Call, "'" + displayName(Callee) + "'", Sc, Out);
  recordExternal(Callee, Call, Sc, Out);
  const FunctionDecl *Def = nullptr;
  if (!Callee->hasBody(Def) || !Def || inToolchainCode(Def)) {
    // A library algorithm runs the lambdas and functors passed to it.
    for (const FunctionDecl *Fn : Targets.callableArguments(Call))
      descend(Fn, callLoc(Call), Sc, Out);
    return;
  }
  descend(Callee, callLoc(Call), Sc, Out, Call);
}

/// The constant arguments of \p Call for integral, enum and bool
/// parameters of \p Def.
static ParamBindings constantArguments(const CallExpr *Call,
                                       const FunctionDecl *Def,
                                       const FunctionDecl *Caller,
                                       const ParamBindings *CallerBound,
                                       TuConstants &Constants) {
  ParamBindings Out;
  if (!Call || !Def)
    return Out;
  unsigned Shift = argumentOffset(Call, Def);
  for (unsigned I = 0; I < Def->getNumParams(); ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I);
    QualType T = P->getType();
    if (I + Shift >= Call->getNumArgs() || !passesIntegralValue(T))
      continue;
    const Expr *Arg = ignoreForwarding(Call->getArg(I + Shift));
    if (auto V = Constants.valueOf(Arg, Caller)) {
      Out.push_back({P, *V});
      continue;
    }
    // A parameter of the caller that is itself bound: passed on.
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts());
        DRE && CallerBound)
      for (const Binding &B : *CallerBound)
        if (B.Path.empty() && DRE->getDecl() == B.Param)
          Out.push_back({P, B.Value});
  }
  // A lambda's body names the enclosing function's parameters themselves
  // (`if (debug_synchronous)` in a local lambda): their bindings hold there.
  if (const auto *M = dyn_cast<CXXMethodDecl>(Def);
      M && M->getParent()->isLambda() && CallerBound)
    Out.insert(Out.end(), CallerBound->begin(), CallerBound->end());
  return Out;
}

ParamBindings HazardScanner::argumentBindings(
    const CallExpr *Call, const FunctionDecl *Callee,
    const FunctionDecl *Caller, const ParamBindings *CallerBound) {
  return constantArguments(Call, Callee, Caller, CallerBound, Constants);
}

/// A call the whole-program phase resolves: \p Kind External or Overrides,
/// to \p Callee (named by \p Usr), made by \p Caller.
static RawHazard crossFileCall(RawHazard::Form Kind, const FunctionDecl *Callee,
                               std::string Usr, const FunctionDecl *Caller,
                               const CallExpr *Call) {
  RawHazard H;
  H.Kind = Kind;
  H.Api = displayName(Callee);
  H.Detail = std::move(Usr);
  H.Origin = displayName(Caller);
  H.Loc = callLoc(Call);
  return H;
}

void HazardScanner::recordExternal(const FunctionDecl *Callee,
                                   const CallExpr *Call, const Scope &Sc,
                                   std::vector<RawHazard> &Out) {
  const FunctionDecl *Def = nullptr;
  const SourceManager &SM = Ctx.getSourceManager();
  if (!Opts.RecordExternalCalls || Callee->hasBody(Def) ||
      SM.isInSystemHeader(SM.getExpansionLoc(Callee->getLocation())))
    return;
  // A pure virtual method runs an override (recordOverrides).
  if (const auto *M = dyn_cast<CXXMethodDecl>(Callee); M && M->isPureVirtual())
    return;
  // A function another file defines: the whole-program phase follows it,
  // with the constants this call gives it.
  if (std::string Usr = usrOf(Callee); !Usr.empty()) {
    RawHazard H = crossFileCall(RawHazard::External, Callee, Usr, Sc.Fn, Call);
    for (const Binding &B :
         constantArguments(Call, Callee, Sc.Fn, Sc.Bound, Constants))
      if (const auto *P = dyn_cast<ParmVarDecl>(B.Param); P && B.Path.empty())
        H.ConstantArgs.push_back({P->getFunctionScopeIndex(), B.Value});
    unsigned Shift = argumentOffset(Call, Callee);
    for (unsigned I = 0; I < Callee->getNumParams(); ++I)
      if (I + Shift < Call->getNumArgs() &&
          passesIntegralValue(Callee->getParamDecl(I)->getType()))
        if (const ParmVarDecl *P = parameterOf(Call->getArg(I + Shift));
            P && P->getDeclContext() == Sc.Fn)
          H.PassedParams.push_back({I, P->getFunctionScopeIndex()});
    Out.push_back(std::move(H));
  }
}

/// The method a virtual call dispatches on (not a qualified `Base::f()`).
static const CXXMethodDecl *dispatchedMethod(const CallExpr *Call) {
  const auto *M = dyn_cast<CXXMemberCallExpr>(Call);
  const CXXMethodDecl *MD = M ? M->getMethodDecl() : nullptr;
  if (!MD || !MD->isVirtual())
    return nullptr;
  const auto *Callee =
      dyn_cast<MemberExpr>(M->getCallee()->IgnoreParenImpCasts());
  return Callee && Callee->hasQualifier() ? nullptr : MD;
}

void HazardScanner::recordOverrides(
    const CallExpr *Call, const std::vector<const FunctionDecl *> &Followed,
    const Scope &Sc, std::vector<RawHazard> &Out) {
  const CXXMethodDecl *MD =
      Opts.RecordExternalCalls ? dispatchedMethod(Call) : nullptr;
  std::string Usr = MD ? usrOf(MD) : "";
  if (Usr.empty())
    return;
  // Overrides other files define: the whole-program phase follows them.
  RawHazard H = crossFileCall(RawHazard::Overrides, MD, Usr, Sc.Fn, Call);
  for (const FunctionDecl *F : Followed)
    if (std::string Seen = usrOf(F); !Seen.empty())
      H.Followed.push_back(std::move(Seen));
  Out.push_back(std::move(H));
}

void HazardScanner::scanStatusQuery(const CallExpr *Call,
                                    std::vector<RawHazard> &Out) {
  if (auto H = rules::legacyStreamQuery(Call, Ctx))
    Out.push_back(std::move(*H));
}

bool HazardScanner::joinedInFunction(const Expr *Stream,
                                     const FunctionDecl *Fn) {
  std::string Key = streamKey(Stream);
  llvm::SmallVector<const Stmt *, 64> Work = {Fn->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *FD = directCallee(Call);
          FD && FD->getIdentifier() && FD->getName().contains("WaitEvent") &&
          Call->getNumArgs() > 0 && streamKey(Call->getArg(0)) == Key)
        return true;
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return false;
}

void HazardScanner::descend(const FunctionDecl *Callee, SourceLocation At,
                            const Scope &Sc, std::vector<RawHazard> &Out,
                            const CallExpr *Call) {
  const FunctionDecl *Def = nullptr;
  if (!Callee || !Callee->hasBody(Def) || !Def)
    return;
  if (inToolchainCode(Def))
    return; // a third-party library's body (-isystem) is followed
  if (Sc.Depth + 1 > Opts.MaxCallDepth)
    return;
  if (const FunctionRole *Role = Roles.roleOf(Def))
    if (Role->Safe)
      return;
  ParamBindings Bound =
      constantArguments(Call, Def, Sc.Fn, Sc.Bound, Constants);
  // What holds in the caller about the expressions it passes (PathFacts.h):
  // the region's facts in its own function, the caller's facts below.
  const ParamBindings *Facts = Sc.Depth == 0 ? RegionFacts : Sc.Bound;
  if (Facts && Call)
    for (Binding &B : translateFacts(*Facts, Call, Def, Ctx))
      if (!llvm::is_contained(Bound, B))
        Bound.push_back(std::move(B));
  std::sort(Bound.begin(), Bound.end());
  const std::vector<RawHazard> &Inner = summary(Def, Sc.Depth + 1, Bound);
  std::string CalleeName = displayName(Def);
  for (const RawHazard &I : Inner) {
    // The depth bound holds whichever caller computed the memoized summary
    // first; it also keeps each hazard's chain, and so memory, bounded.
    if (Sc.Depth + 1 + I.Through.size() > Opts.MaxCallDepth)
      continue;
    RawHazard H = I;
    if (Sc.Depth == 0)
      H.CallSite = At; // reported at the call inside the region
    else
      H.Chain.insert(H.Chain.begin(),
                     DiagNote{At, "'" + displayName(Sc.Fn) + "' calls '" +
                                      CalleeName + "' here"});
    H.Through.insert(H.Through.begin(), CalleeName);
    Out.push_back(std::move(H));
  }
}

void HazardScanner::scanPendingRead(const Stmt *S, const FlowState &St,
                                    std::vector<RawHazard> &Out) {
  if (auto H = rules::pendingHostRead(S, St, Cat))
    Out.push_back(std::move(*H));
}

void HazardScanner::scan(const Stmt *S, const FlowState &St, bool IsTerminator,
                         const Scope &Sc, std::vector<RawHazard> &Out) {
  size_t First = Out.size();
  if (IsTerminator) {
    scanBranch(S, Sc, Out);
  } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
    scanCall(Call, Sc, Out);
  } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    const FunctionRole *Role = Roles.roleOf(Ctor);
    const ApiEntry *E = Ctor ? Cat.findApi(listedName(Ctor, Cat)) : nullptr;
    if (E) {
      // A catalog constructor (thrust::device_vector's allocates).
      if (auto Check = rules::catalogCallCheck(*E, nullptr, Ctx))
        Out.push_back(rules::catalogCall(*E, *Check, Construct->getBeginLoc()));
    } else if (Ctor && !Ctor->isTrivial() && !(Role && Role->Opens)) {
      descend(Ctor, Construct->getBeginLoc(), Sc, Out);
    }
  } else {
    scanPendingRead(S, St, Out);
  }
  if (St.ThreadRelaxed)
    for (size_t I = First; I < Out.size(); ++I)
      Out[I].ThreadRelaxed = true;
}

const std::vector<RawHazard> &
HazardScanner::summary(const FunctionDecl *FD, unsigned Depth,
                       const ParamBindings &Bound) {
  auto Key = std::make_pair(FD, Bound);
  auto It = Summaries.find(Key);
  if (It != Summaries.end())
    return It->second;
  static const std::vector<RawHazard> Empty;
  if (!InProgress.insert(FD).second)
    return Empty; // recursion: the cycle's hazards are found on the way in
  std::vector<RawHazard> Result;
  RegionFinder RF(FD, FD->getBody(), Ctx, Cat, /*CalleeMode=*/true, &Roles,
                  nullptr, Bound.empty() ? nullptr : &Bound);
  scanStatements(
      FD, RF, Depth, runsInInheritedRegion,
      [&](const FlowState &, std::vector<RawHazard> &Found) {
        for (RawHazard &H : Found)
          Result.push_back(std::move(H));
      },
      Bound.empty() ? nullptr : &Bound);
  InProgress.erase(FD);
  return Summaries[Key] = std::move(Result);
}

bool HazardScanner::calledInUnit(const CallExpr *Call, const ArgCondition &C) {
  std::string Names;
  for (const std::string &N : C.AnyOf)
    Names += N + ";";
  Names += std::to_string(C.Index);
  auto It = UnitCallKeys.find(Names);
  if (It == UnitCallKeys.end()) {
    std::set<std::string> Keys;
    llvm::SmallVector<const Stmt *, 64> Work;
    const SourceManager &SM = Ctx.getSourceManager();
    // Every function body of user code: namespaces and classes included.
    llvm::SmallVector<const DeclContext *, 16> Contexts = {
        Ctx.getTranslationUnitDecl()};
    while (!Contexts.empty()) {
      const DeclContext *DC = Contexts.pop_back_val();
      for (const Decl *D : DC->decls()) {
        if (SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
          continue;
        if (isa<NamespaceDecl, CXXRecordDecl, LinkageSpecDecl>(D))
          Contexts.push_back(cast<DeclContext>(D));
        if (const FunctionDecl *FD = D->getAsFunction())
          Work.push_back(FD->getBody());
      }
    }
    while (!Work.empty()) {
      const Stmt *S = Work.pop_back_val();
      if (!S)
        continue;
      if (const auto *Other = dyn_cast<CallExpr>(S))
        if (const FunctionDecl *FD = directCallee(Other)) {
          std::string Name = catalogName(FD);
          for (const std::string &N : C.AnyOf)
            if (N == Name && C.Index < Other->getNumArgs())
              Keys.insert(streamKey(Other->getArg(C.Index)));
        }
      for (const Stmt *Child : S->children())
        Work.push_back(Child);
    }
    It = UnitCallKeys.emplace(Names, std::move(Keys)).first;
  }
  if (It->second.empty())
    return false;
  std::string Key =
      C.Index < Call->getNumArgs() ? streamKey(Call->getArg(C.Index)) : "";
  // Unknown keys on either side: assume it is the same handle.
  return Key.empty() || It->second.count(Key) || It->second.count("");
}

void HazardScanner::scanStatements(
    const FunctionDecl *Fn, const RegionFinder &RF, unsigned Depth,
    llvm::function_ref<bool(const FlowState &)> Inside,
    llvm::function_ref<void(const FlowState &, std::vector<RawHazard> &)> Emit,
    const ParamBindings *Bound) {
  if (!RF.valid())
    return;
  const Stmt *Body = Fn->getBody();
  // A copy under a "not capturing" guard reads nothing back under capture.
  llvm::DenseSet<const Stmt *> GuardedCalls;
  // Host state the region updates, for arguments that carry it to work.
  FrozenValues Frozen(Body, Ctx);
  RF.forEachStatement([&](const Stmt *S, const FlowState &St, bool Term) {
    if (!Term && isa<CallExpr>(S) && St.Reached && St.Guarded)
      GuardedCalls.insert(S);
    if (!Term && Inside(St))
      Frozen.noteUpdate(S);
  });
  ShapeTaint Taint(Body, Ctx, Cat, Opts, 0, &GuardedCalls);
  auto Configs = kernelConfigCalls(Body);
  auto BesideCaptured = allocationsBesideCapturedForm(Body, Cat);
  Scope Sc{Fn, Taint, Configs, BesideCaptured, Depth, Bound, &Frozen};
  RF.forEachStatement(
      [&](const Stmt *S, const FlowState &St, bool Term) {
        if (!Inside(St))
          return;
        // One region here: the calls carry its facts into their callees.
        RegionFacts = Depth == 0 && St.Active.count() == 1
                          ? &RF.regions()[St.Active.find_first()].Facts
                          : nullptr;
        std::vector<RawHazard> Found;
        scan(S, St, Term, Sc, Found);
        RegionFacts = nullptr;
        if (!Found.empty())
          Emit(St, Found);
      },
      [&](const CFGAutomaticObjDtor &Dtor, const FlowState &St) {
        if (!Inside(St))
          return;
        std::vector<RawHazard> Found;
        scanDestructor(Dtor, St, Sc, Found);
        if (!Found.empty())
          Emit(St, Found);
      });
}

void HazardScanner::scanDestructor(const CFGAutomaticObjDtor &Dtor,
                                   const FlowState &St, const Scope &Sc,
                                   std::vector<RawHazard> &Out) {
  const VarDecl *VD = Dtor.getVarDecl();
  const CXXRecordDecl *RD = VD->getType()->getAsCXXRecordDecl();
  const CXXDestructorDecl *D = RD ? RD->getDestructor() : nullptr;
  if (!D || D->isTrivial())
    return;
  if (const FunctionRole *Role = Roles.roleOf(D))
    if (Role->Closes || Role->Opens)
      return; // a RAII guard's end: the region finder's business
  SourceLocation At = Dtor.getTriggerStmt() ? Dtor.getTriggerStmt()->getEndLoc()
                                            : VD->getLocation();
  size_t First = Out.size();
  if (const ApiEntry *E = Cat.findApi(listedName(D, Cat))) {
    if (auto Check = rules::catalogCallCheck(*E, nullptr, Ctx))
      Out.push_back(rules::catalogCall(*E, *Check, At));
  } else {
    descend(D, At, Sc, Out);
  }
  for (size_t I = First; I < Out.size(); ++I) {
    Out[I].Extra.push_back(
        {VD->getLocation(), "'" + VD->getNameAsString() +
                                "' is destroyed at the end of its scope, "
                                "inside the region"});
    if (St.ThreadRelaxed)
      Out[I].ThreadRelaxed = true;
  }
}

} // namespace capture_lint
