//===- RegionFinder.cpp - Capture regions on the CFG ----------------------===//

#include "capture_lint/RegionFinder.h"
#include "BeginResult.h"
#include "ExpectedFailure.h"
#include "capture_lint/ApiMatch.h"
#include "capture_lint/AstUtil.h"
#include "capture_lint/StaticState.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMap.h"
#include "clang/Analysis/Analyses/PostOrderCFGView.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace capture_lint {

const RegionApi *RegionFinder::regionApiOf(const CallExpr *Call,
                                           const Catalog &Cat) {
  if (!Call)
    return nullptr;
  return Cat.findRegionApi(listedName(directCallee(Call), Cat));
}

/// The expression naming the stream (or graph object) of a region call.
static const Expr *regionStreamExpr(const CallExpr *Call,
                                    const RegionApi &Api) {
  if (Api.StreamArg == RegionApi::NoStreamArg)
    return nullptr;
  if (Api.keyedByObject()) {
    if (const auto *M = dyn_cast<CXXMemberCallExpr>(Call))
      return M->getImplicitObjectArgument();
    return nullptr;
  }
  if (static_cast<unsigned>(Api.StreamArg) < Call->getNumArgs())
    return Call->getArg(Api.StreamArg);
  return nullptr;
}

/// The object a member call is made on, if any.
static const Expr *objectOf(const CallExpr *Call) {
  if (const auto *M = dyn_cast<CXXMemberCallExpr>(Call))
    return M->getImplicitObjectArgument();
  return nullptr;
}

CaptureMode modeOfBegin(const CallExpr *Begin, const RegionApi &Api,
                        const ASTContext &Ctx, const Stmt *Body) {
  if (!Api.ModeArg || *Api.ModeArg >= Begin->getNumArgs())
    return Api.DefaultMode;
  auto V = constantValueIn(Begin->getArg(*Api.ModeArg), Body, Ctx);
  if (!V || *V < 0 || *V > 2)
    return CaptureMode::Unknown;
  return static_cast<CaptureMode>(*V);
}

static bool isThreadModeExchange(const CallExpr *Call) {
  const FunctionDecl *FD = directCallee(Call);
  if (!FD || !FD->getIdentifier())
    return false;
  StringRef N = FD->getName();
  return N == "cudaThreadExchangeStreamCaptureMode" ||
         N == "hipThreadExchangeStreamCaptureMode";
}

/// A constant of a capture-mode enum type equal to Relaxed.
static bool isRelaxedConstant(const Expr *E, const ASTContext &Ctx) {
  if (!E)
    return false;
  E = E->IgnoreParenImpCasts();
  if (!E->getType()->isEnumeralType() ||
      !StringRef(E->getType().getAsString()).contains("CaptureMode"))
    return false;
  auto V = constantInt(E, Ctx);
  return V && *V == static_cast<int>(CaptureMode::Relaxed);
}

/// A RAII object whose constructor switches the thread's capture mode to
/// relaxed and whose destructor switches it back (PyTorch's
/// CUDAStreamCaptureModeGuard): the constructor calls the exchange, and the
/// mode it is given (an argument, or a member's initialiser) is Relaxed.
static bool constructsRelaxingGuard(const CXXConstructExpr *Construct,
                                    const ASTContext &Ctx) {
  const CXXConstructorDecl *Ctor = Construct->getConstructor();
  const FunctionDecl *Def = nullptr;
  if (!Ctor || !Ctor->hasBody(Def) || !Def)
    return false;
  bool Exchanges = false;
  llvm::SmallVector<const Stmt *, 16> Work = {Def->getBody()};
  while (!Work.empty() && !Exchanges) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      Exchanges = isThreadModeExchange(Call);
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  if (!Exchanges)
    return false;
  for (const Expr *Arg : Construct->arguments())
    if (isRelaxedConstant(Arg, Ctx))
      return true;
  for (const CXXCtorInitializer *I : cast<CXXConstructorDecl>(Def)->inits())
    if (I->isMemberInitializer() && isRelaxedConstant(I->getInit(), Ctx))
      return true;
  return false;
}

/// A condition simple enough to compare by its text: names, members,
/// literals, comparisons and logic, nothing with side effects.
static bool isPureCondition(const Stmt *S) {
  if (!S)
    return true;
  if (isa<CallExpr, CXXConstructExpr, LambdaExpr, StmtExpr>(S))
    return false;
  if (const auto *B = dyn_cast<BinaryOperator>(S))
    if (B->isAssignmentOp())
      return false;
  if (const auto *U = dyn_cast<UnaryOperator>(S))
    if (U->isIncrementDecrementOp())
      return false;
  for (const Stmt *C : S->children())
    if (!isPureCondition(C))
      return false;
  return true;
}

/// A condition's text with leading negations folded into \p Value.
static std::string conditionKey(const Expr *Cond, bool &Value,
                                const ASTContext &Ctx) {
  Value = true;
  if (!Cond)
    return "";
  Cond = Cond->IgnoreParenImpCasts();
  while (const auto *U = dyn_cast<UnaryOperator>(Cond)) {
    if (U->getOpcode() != UO_LNot)
      break;
    Value = !Value;
    Cond = U->getSubExpr()->IgnoreParenImpCasts();
  }
  if (!isPureCondition(Cond))
    return "";
  return writtenText(Cond, Ctx);
}

/// A declaration clang gave up on: invalid itself, or a member of a class
/// that is (a field of a type a missing header would declare). The CFG
/// builder crashes on the implicit destructors and initialisers of such a
/// class, so it is not analysed.
static bool isBroken(const Decl *D) {
  if (!D)
    return false;
  if (D->isInvalidDecl())
    return true;
  if (const auto *M = dyn_cast<CXXMethodDecl>(D))
    return M->getParent()->isInvalidDecl();
  return false;
}

RegionFinder::RegionFinder(const Decl *D, const Stmt *Body, ASTContext &Ctx,
                           const Catalog &Cat, bool CalleeMode,
                           RoleOracle *Roles, const CaptureRegion *Inherited,
                           const ParamBindings *Bound)
    : Ctx(Ctx), Cat(Cat), CalleeMode(CalleeMode),
      Bindings(Bound ? *Bound : ParamBindings()), Roles(Roles),
      Guards(Cat, Ctx, Roles) {
  if (!Body || isBroken(D))
    return;
  FnBody = Body;
  dropWrittenFacts(Bindings, Body); // a parameter the callee writes
  CFG::BuildOptions Opts;
  Opts.setAllAlwaysAdd();
  Opts.AddImplicitDtors = true; // a RAII guard's destructor can end a region
  Opts.AddTemporaryDtors = false;
  Opts.AddInitializers = true;
  Opts.AddCXXDefaultInitExprInCtors = true;
  Cfg = CFG::buildCFG(D, const_cast<Stmt *>(Body), &Ctx, Opts);
  if (!Cfg)
    return;
  Guards.scan(Body);
  if (CalleeMode)
    Regions.push_back(Inherited ? *Inherited : CaptureRegion{});
  collectRegions(Body);
  solve();
}

/// The index of the parameter \p E names, if it names one.
static std::optional<unsigned> parameterIndex(const Expr *E) {
  const auto *DRE =
      E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
  const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  if (!P)
    return std::nullopt;
  return P->getFunctionScopeIndex();
}

/// The argument call or construction \p S gives the callee's parameter
/// \p Param (an operator method's object is no parameter), or null.
static const Expr *argumentFor(const Stmt *S, std::optional<unsigned> Param) {
  if (!Param)
    return nullptr;
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(S))
    return *Param < Construct->getNumArgs() ? Construct->getArg(*Param)
                                            : nullptr;
  const auto *Call = dyn_cast<CallExpr>(S);
  if (!Call)
    return nullptr;
  unsigned Shift = isa<CXXOperatorCallExpr>(Call) &&
                           isa_and_nonnull<CXXMethodDecl>(directCallee(Call))
                       ? 1
                       : 0;
  return *Param + Shift < Call->getNumArgs() ? Call->getArg(*Param + Shift)
                                             : nullptr;
}

void RegionFinder::addRoleRegion(const Stmt *S, const OpenedCapture &Opened,
                                 const Expr *Object, const VarDecl *Guard) {
  CaptureRegion R;
  R.BeginStmt = S;
  R.Api = Opened.Api;
  R.Mode = Opened.Mode;
  // An opener given the mode (`begin_capture(s,
  // cudaStreamCaptureModeRelaxed)`): the argument decides it, or this
  // function's own caller does.
  if (const Expr *Arg = argumentFor(S, Opened.ModeParam);
      Arg && R.Mode == CaptureMode::Unknown) {
    if (auto V = constantValueIn(Arg, FnBody, Ctx); V && *V >= 0 && *V <= 2)
      R.Mode = static_cast<CaptureMode>(*V);
    else
      R.ModeParam = parameterIndex(Arg);
  }
  // Its stream: the argument given for the opener's stream parameter.
  R.Stream = Opened.Stream;
  if (const Expr *Arg = argumentFor(S, Opened.StreamParam)) {
    R.StreamKey = streamKey(Arg);
    R.StreamParam = parameterIndex(Arg);
    if (std::string Text = sourceText(Arg, Ctx); !Text.empty())
      R.Stream = Text;
  }
  R.Key = streamKey(Object);
  R.ViaRole = true;
  R.Guard = Guard;
  R.BeginLoc = S->getBeginLoc();
  if (const auto *M = dyn_cast<CXXMemberCallExpr>(S))
    R.BeginLoc = M->getExprLoc();
  std::string Callee = "the constructor";
  if (const auto *Call = dyn_cast<CallExpr>(S))
    Callee = "'" + catalogName(directCallee(Call)) + "'";
  else if (Guard)
    Callee = "the constructor of '" + Guard->getNameAsString() + "'";
  bool Graph = Opened.Api && Opened.Api->keyedByObject();
  R.Headline =
      std::string(Graph ? "capture into " : "capture of ") +
      (R.Stream.empty() ? std::string(Graph ? "a graph" : "a stream")
                        : (Graph ? "graph '" : "stream '") + R.Stream + "'") +
      " begins with this call to " + Callee + ", mode " +
      std::string(modeName(R.Mode));
  R.Origin = Opened.Chain;
  R.Origin.push_back({Opened.BeginLoc, "the capture begins here"});
  Regions.push_back(std::move(R));
}

void RegionFinder::mapConstructedVars() {
  for (const CFGBlock *B : *Cfg)
    for (const CFGElement &E : *B)
      if (auto S = E.getAs<CFGStmt>())
        if (const auto *DS = dyn_cast<DeclStmt>(S->getStmt()))
          for (const Decl *D : DS->decls())
            if (const auto *VD = dyn_cast<VarDecl>(D))
              if (const Expr *Init = VD->getInit())
                ConstructedVar[Init->IgnoreImplicit()] = VD;
}

void RegionFinder::catalogBegin(const CallExpr *Call, const RegionApi &Api,
                                ParentMap &PM, const Stmt *Body) {
  CaptureRegion R;
  R.Begin = Call;
  R.BeginStmt = Call;
  R.Api = &Api;
  R.Mode = modeOfBegin(Call, Api, Ctx, Body);
  if (R.Mode == CaptureMode::Unknown && Api.ModeArg)
    R.ModeParam = parameterIndex(Call->getArg(*Api.ModeArg));
  const Expr *StreamE = regionStreamExpr(Call, Api);
  R.Stream = sourceText(StreamE, Ctx);
  R.Key = streamKey(StreamE);
  R.StreamKey = R.Key;
  R.StreamParam = parameterIndex(StreamE);
  R.StreamVar = baseDeclOf(StreamE);
  R.ThisMember = thisMember(StreamE);
  setResult(R, Call, 0, PM);
  R.BeginLoc = Call->getBeginLoc();
  Regions.push_back(std::move(R));
}

void RegionFinder::collectCall(const CallExpr *Call, ParentMap &PM,
                               const Stmt *Body) {
  if (const RegionApi *Api = regionApiOf(Call, Cat)) {
    if (Api->Kind == RegionApi::Destroy)
      return;
    // An end ends the capture even when it fails (904, unjoined: the
    // stream leaves capture mode with a NULL graph); a begin a test
    // expects to fail begins none.
    if (Api->Kind == RegionApi::End)
      EndSites.push_back({Call->getBeginLoc(), Api->Group});
    else if (!resultExpectedToFail(Call, PM, Ctx))
      catalogBegin(Call, *Api, PM, Body);
    return;
  }
  const FunctionRole *Role =
      Roles ? Roles->roleOf(directCallee(Call)) : nullptr;
  if (Role && Role->Opens) {
    addRoleRegion(Call, *Role->Opens, objectOf(Call), nullptr);
    // An opener opens nothing where its result says it failed, as a begin
    // does (beginFailedOn): where it is not what the opener returns with
    // the capture open, or, when its body is not here to say, not success
    // (true for a bool, 0 for a status).
    QualType T = Call->getType();
    if (Role->Opens->ResultWhenOpen)
      setResult(Regions.back(), Call, *Role->Opens->ResultWhenOpen, PM);
    else if (T->isIntegralOrEnumerationType())
      setResult(Regions.back(), Call, T->isBooleanType() ? 1 : 0, PM);
  } else if (Role && Role->Closes)
    EndSites.push_back({Call->getBeginLoc(), Role->Closes->Group});
}

void RegionFinder::collectSite(const CFGElement &E, ParentMap &PM,
                               const Stmt *Body) {
  if (auto Dtor = E.getAs<CFGAutomaticObjDtor>()) {
    if (const FunctionRole *Role = destructorCloser(Dtor->getVarDecl()))
      EndSites.push_back({Dtor->getTriggerStmt()
                              ? Dtor->getTriggerStmt()->getEndLoc()
                              : SourceLocation(),
                          Role->Closes->Group});
    return;
  }
  auto S = E.getAs<CFGStmt>();
  if (!S)
    return;
  const Stmt *St = S->getStmt();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(St)) {
    const FunctionRole *Role =
        Roles ? Roles->roleOf(Construct->getConstructor()) : nullptr;
    if (Role && Role->Opens) {
      auto It = ConstructedVar.find(Construct);
      addRoleRegion(Construct, *Role->Opens, nullptr,
                    It == ConstructedVar.end() ? nullptr : It->second);
    }
    return;
  }
  if (const auto *Call = dyn_cast<CallExpr>(St))
    collectCall(Call, PM, Body);
}

void RegionFinder::addBeginConditions(CaptureRegion &R, ParentMap &PM,
                                      const Stmt *Body) {
  const Stmt *Child = R.BeginStmt;
  for (const Stmt *P = PM.getParent(Child); P; Child = P, P = PM.getParent(P)) {
    // A begin in a loop (one per stream of an array) still runs only
    // under the condition around the loop.
    if (isa<SwitchStmt>(P))
      break;
    const auto *If = dyn_cast<IfStmt>(P);
    if (!If || If->getCond() == Child || If->hasInitStorage() ||
        If->hasVarStorage())
      continue;
    bool Value = true;
    std::string Key = conditionKey(If->getCond(), Value, Ctx);
    if (!Key.empty()) {
      R.CondKey = Key;
      R.CondValue = If->getThen() == Child ? Value : !Value;
    }
    bool Taken = If->getThen() == Child;
    addConditionFacts(If->getCond(), Taken, Ctx, R.Facts);
    addPredicateFacts(If->getCond(), Taken, Ctx, R.Facts);
    break;
  }
  addValidationFactsBefore(R.BeginStmt, PM, R.Facts);
  dropWrittenFacts(R.Facts, Body);
}

void RegionFinder::collectRegions(const Stmt *Body) {
  ParentMap PM(const_cast<Stmt *>(Body));
  mapConstructedVars(); // which variable each constructor call initialises
  size_t FirstOwn = Regions.size();
  for (const CFGBlock *B : *Cfg)
    for (const CFGElement &E : *B)
      collectSite(E, PM, Body);
  // The condition each begin runs under, for correlated branches.
  for (size_t I = FirstOwn; I < Regions.size(); ++I)
    addBeginConditions(Regions[I], PM, Body);
}

void RegionFinder::addValidationFactsBefore(const Stmt *Begin,
                                            const ParentMap &PM,
                                            ParamBindings &Facts) const {
  // The calls before the begin in each enclosing block run on every path
  // to it.
  llvm::SmallVector<const CallExpr *, 8> Before;
  const Stmt *Child = Begin;
  for (const Stmt *P = PM.getParent(Child); P; Child = P, P = PM.getParent(P))
    if (const auto *Block = dyn_cast<CompoundStmt>(P))
      for (const Stmt *S : Block->body()) {
        if (S == Child)
          break;
        if (const auto *E = dyn_cast<Expr>(S))
          if (const auto *Call = dyn_cast<CallExpr>(
                  E->IgnoreParenImpCasts()->IgnoreImplicit()))
            Before.push_back(Call);
      }
  // Outermost first, so a validation sees the facts the region's condition
  // gives whatever the order.
  for (const CallExpr *Call : llvm::reverse(Before))
    addValidationFacts(Call, Ctx, Facts, Facts);
}

void RegionFinder::close(FlowState &State, const RegionApi *Api,
                         const std::string &Key, bool KeyFromRole,
                         const VarDecl *Guard, SourceLocation At,
                         bool Launches) const {
  auto Matches = [&](const CaptureRegion &R) {
    if (R.Api && Api && R.Api->Group != Api->Group)
      return false;
    if (R.Guard || Guard)
      return R.Guard == Guard || !R.Guard || !Guard;
    if (R.ViaRole == KeyFromRole)
      return R.Key.empty() || Key.empty() || R.Key == Key;
    return true;
  };
  auto Close = [&](unsigned I) {
    State.Active.reset(I);
    auto &Ends = Regions[I].Ends;
    if (At.isValid() && std::find(Ends.begin(), Ends.end(), At) == Ends.end())
      Ends.push_back(At);
    auto &Launching = Regions[I].LaunchingEnds;
    if (Launches && At.isValid() && !llvm::is_contained(Launching, At))
      Launching.push_back(At);
  };
  // A function's own regions first; the caller's only when none matches.
  bool ClosedOwn = false;
  for (unsigned I = CalleeMode ? 1 : 0; I < Regions.size(); ++I)
    if (State.Active.test(I) && Matches(Regions[I]))
      Close(I), ClosedOwn = true;
  if (!ClosedOwn && CalleeMode && State.Active.test(0)) {
    Close(0);
    State.EndedInherited = true;
    if (!InheritedClosedBy)
      InheritedClosedBy = Api;
    InheritedCloseLaunches |= Launches;
  }
  if (State.Active.none()) {
    State.PendingHostCopies.clear();
    State.PendingCopyCalls.clear();
  }
}

void RegionFinder::transferCall(const CallExpr *Call, FlowState &State) const {
  if (const GuardApi *G = Cat.findGuard(listedName(directCallee(Call), Cat)))
    if (G->StatusArg >= 0 &&
        static_cast<unsigned>(G->StatusArg) < Call->getNumArgs())
      if (const ValueDecl *V = baseDeclOf(Call->getArg(G->StatusArg)))
        State.setFreshGuard(V, queriedStream(Call));
  if (const RegionApi *Api = cachedRegionApi(Call)) {
    if (Api->Kind == RegionApi::Begin) {
      activate(Call, State);
      return;
    }
    if (Api->Kind == RegionApi::Destroy) {
      endStreamLife(State, baseDeclOf(regionStreamExpr(Call, *Api)));
      return;
    }
    close(State, Api, streamKey(regionStreamExpr(Call, *Api)),
          /*KeyFromRole=*/false, nullptr, Call->getBeginLoc());
    return;
  }
  if (isThreadModeExchange(Call) && Call->getNumArgs() == 1) {
    const ValueDecl *V = baseDeclOf(Call->getArg(0));
    if (State.ThreadRelaxed) {
      if (!State.RelaxedBy || State.RelaxedBy == V)
        State.ThreadRelaxed = false, State.RelaxedBy = nullptr;
    } else if (const auto *VD = dyn_cast_or_null<VarDecl>(V)) {
      auto M = VD->getInit() ? constantInt(VD->getInit(), Ctx) : std::nullopt;
      if (M && *M == static_cast<int>(CaptureMode::Relaxed))
        State.ThreadRelaxed = true, State.RelaxedBy = VD;
    }
    return;
  }
  if (Roles) {
    if (const FunctionRole *Role = Roles->roleOf(directCallee(Call))) {
      if (Role->Opens) {
        activate(Call, State);
        return;
      }
      if (Role->Closes) {
        const CXXMemberCallExpr *M = dyn_cast<CXXMemberCallExpr>(Call);
        close(State, Role->Closes,
              streamKey(M ? M->getImplicitObjectArgument() : nullptr),
              /*KeyFromRole=*/true, nullptr,
              M ? M->getExprLoc() : Call->getBeginLoc(), Role->LaunchesGraph);
        return;
      }
    } else if (const FunctionRole *Role = Roles->indirectCloser(Call)) {
      // A held callable every target of which ends the capture.
      close(State, Role->Closes, "", /*KeyFromRole=*/true, nullptr,
            Call->getBeginLoc(), Role->LaunchesGraph);
      return;
    }
  }
  if (!State.Active.any() || State.Guarded)
    return;
  if (const ApiEntry *E = matchApi(Call, Cat))
    if (E->behaviourIn(CaptureMode::Global) == Behaviour::Captured)
      if (const ValueDecl *V = deviceToHostDestination(Call, *E, Ctx))
        if (State.PendingHostCopies.insert(V).second)
          State.PendingCopyCalls.push_back({V, Call});
}

const FunctionRole *RegionFinder::destructorCloser(const VarDecl *VD) const {
  const CXXRecordDecl *RD = VD->getType()->getAsCXXRecordDecl();
  if (!Roles || !RD || !RD->getDestructor())
    return nullptr;
  if (const FunctionRole *Role = Roles->roleOf(RD->getDestructor());
      Role && Role->Closes)
    return Role;
  return Roles->guardCloser(VD);
}

void RegionFinder::transfer(const CFGElement &E, FlowState &State) const {
  if (auto Dtor = E.getAs<CFGAutomaticObjDtor>()) {
    const VarDecl *VD = Dtor->getVarDecl();
    if (ownsStream(VD)) // a stream object owned by this scope
      endStreamLife(State, VD);
    if (State.ThreadRelaxed && State.RelaxedBy == VD)
      State.ThreadRelaxed = false, State.RelaxedBy = nullptr; // mode restored
    if (const FunctionRole *Role = destructorCloser(VD))
      close(State, Role->Closes, "", /*KeyFromRole=*/true, VD,
            Dtor->getTriggerStmt() ? Dtor->getTriggerStmt()->getEndLoc()
                                   : SourceLocation(),
            Role->LaunchesGraph);
    return;
  }
  auto S = E.getAs<CFGStmt>();
  if (!S)
    return;
  if (const auto *Call = dyn_cast<CallExpr>(S->getStmt()))
    return transferCall(Call, State);
  // A bool local given a guard's answer now.
  if (const auto *DS = dyn_cast<DeclStmt>(S->getStmt()))
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D);
          VD && Guards.isLocalGuardVariable(VD))
        State.setFreshGuard(VD, answerStream(VD->getInit(), State));
  if (const auto *B = dyn_cast<BinaryOperator>(S->getStmt());
      B && B->isAssignmentOp())
    if (const ValueDecl *V = baseDeclOf(B->getLHS());
        V && Guards.isLocalGuardVariable(V))
      State.setFreshGuard(V, answerStream(B->getRHS(), State));
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(S->getStmt())) {
    activate(Construct, State);
    if (!State.ThreadRelaxed && constructsRelaxingGuard(Construct, Ctx))
      if (const VarDecl *VD = ConstructedVar.lookup(Construct))
        State.ThreadRelaxed = true, State.RelaxedBy = VD;
  }
}

bool RegionFinder::ownsStream(const ValueDecl *Holder) const {
  const CXXRecordDecl *RD = Holder->getType()->getAsCXXRecordDecl();
  if (!RD || !RD->getDestructor())
    return false;
  auto [It, New] = StreamOwners.try_emplace(RD, false);
  if (New) // a wrapper's destructor, or a smart pointer's deleter below it
    It->second = bodyHas(
        RD->getDestructor(), 3,
        [&](const Stmt *S) {
          const auto *Call = dyn_cast<CallExpr>(S);
          const RegionApi *Api = Call ? regionApiOf(Call, Cat) : nullptr;
          return Api && Api->Kind == RegionApi::Destroy;
        },
        [](const FunctionDecl *) { return true; });
  return It->second;
}

void RegionFinder::endStreamLife(FlowState &State,
                                 const ValueDecl *Stream) const {
  if (!Stream)
    return;
  for (unsigned I = 0; I < Regions.size(); ++I)
    if (Regions[I].StreamVar == Stream)
      State.Active.reset(I);
}

void RegionFinder::activate(const Stmt *Begin, FlowState &State) const {
  for (unsigned I = 0; I < Regions.size(); ++I)
    if (Regions[I].BeginStmt == Begin) {
      State.Active.set(I);
      Regions[I].Reached = true;
      // A capture begins now: answers to "is it capturing?" given before
      // are out of date, and nothing here is guarded any more.
      State.Guarded = false;
      State.FreshGuards.clear();
    }
}

void RegionFinder::join(FlowState &Into, const FlowState &From) const {
  if (!From.Reached)
    return;
  if (!Into.Reached) {
    Into = From;
    return;
  }
  Into.Active |= From.Active;
  Into.Guarded = Into.Guarded && From.Guarded;
  // Fresh on both paths; about one stream only if both paths agree.
  std::vector<std::pair<const ValueDecl *, std::string>> Both;
  for (const auto &P : Into.FreshGuards)
    if (const std::string *Other = From.freshGuard(P.first))
      Both.push_back({P.first, *Other == P.second ? P.second : ""});
  Into.FreshGuards = std::move(Both);
  Into.EndedInherited = Into.EndedInherited || From.EndedInherited;
  Into.ThreadRelaxed = Into.ThreadRelaxed && From.ThreadRelaxed;
  if (!Into.ThreadRelaxed || Into.RelaxedBy != From.RelaxedBy)
    Into.RelaxedBy = nullptr;
  for (const auto &P : From.PendingCopyCalls)
    if (Into.PendingHostCopies.insert(P.first).second)
      Into.PendingCopyCalls.push_back(P);
}

bool RegionFinder::equal(const FlowState &A, const FlowState &B) const {
  return A.Reached == B.Reached && A.Active == B.Active &&
         A.Guarded == B.Guarded && A.EndedInherited == B.EndedInherited &&
         A.ThreadRelaxed == B.ThreadRelaxed &&
         A.FreshGuards.size() == B.FreshGuards.size() &&
         A.PendingHostCopies.size() == B.PendingHostCopies.size();
}

/// The body of a loop statement, if \p S is one.
static const Stmt *loopBody(const Stmt *S) {
  if (const auto *F = dyn_cast_or_null<ForStmt>(S))
    return F->getBody();
  if (const auto *W = dyn_cast_or_null<WhileStmt>(S))
    return W->getBody();
  if (const auto *D = dyn_cast_or_null<DoStmt>(S))
    return D->getBody();
  if (const auto *R = dyn_cast_or_null<CXXForRangeStmt>(S))
    return R->getBody();
  return nullptr;
}

/// The state leaving \p B along its successor edge \p SuccIndex, refined by
/// a capture-status guard, a correlated condition or a loop exit.
/// Whether the switch successor \p To (a case or default label) can be
/// taken when the condition of \p Switch is \p V.
static bool switchTakes(const SwitchStmt *Switch, const CFGBlock *To, int64_t V,
                        const ASTContext &Ctx) {
  const Stmt *Label = To ? To->getLabel() : nullptr;
  auto Matches = [&](const CaseStmt *C) {
    auto Lo = constantInt(C->getLHS(), Ctx);
    auto Hi = C->getRHS() ? constantInt(C->getRHS(), Ctx) : Lo;
    return !Lo || !Hi || (*Lo <= V && V <= *Hi); // unknown: may match
  };
  if (const auto *C = dyn_cast_or_null<CaseStmt>(Label))
    return Matches(C);
  if (isa_and_nonnull<DefaultStmt>(Label) ||
      (To && !Label)) { // default, or past the switch when none matches
    for (const SwitchCase *SC = Switch->getSwitchCaseList(); SC;
         SC = SC->getNextSwitchCase())
      if (const auto *C = dyn_cast<CaseStmt>(SC); C && Matches(C))
        return false;
    return true;
  }
  return true;
}

void RegionFinder::applyGuards(const Expr *Cond, bool TrueEdge,
                               FlowState &State) const {
  // Where a guard says the stream is not capturing, no capture of it is
  // active on that path: `if (r.capturing()) r.stop(s, g);` ends the region
  // on both edges, so it does not leak past the test (or around a loop).
  if (auto NotCapturingWhenTrue = Guards.notCapturingWhen(Cond))
    if (TrueEdge == *NotCapturingWhenTrue && guardApplies(Cond, State)) {
      State.Guarded = true;
      endGuardedRegions(Cond, State);
    }
  // A static cache's miss branch runs once, on the first use (warm-up).
  if (auto FirstUseWhenTrue = factsOf(Cond, false).FirstUseWhenTrue)
    if (TrueEdge == *FirstUseWhenTrue)
      State.Guarded = true;
}

void RegionFinder::endRegionsRuledOut(const Expr *Cond, bool TrueEdge,
                                      FlowState &State) const {
  // What holds wherever a region runs decides branches inside it.
  for (unsigned I = 0; I < Regions.size(); ++I)
    if (State.Active.test(I) && !Regions[I].Facts.empty())
      if (auto V = evaluateWith(Cond, Regions[I].Facts, Ctx);
          V && *V != TrueEdge)
        State.Active.reset(I);
  // A begin whose result says it failed started no capture.
  for (unsigned I = 0; I < Regions.size(); ++I)
    if (State.Active.test(I) && beginFailedOn(Regions[I], Cond, TrueEdge))
      State.Active.reset(I);
  endWhereCheckedCallSucceeds(Cond, TrueEdge, State);
}

void RegionFinder::endRegionsOnEdge(const CFGBlock &B, const Expr *Cond,
                                    bool TrueEdge, FlowState &State) const {
  const ConditionFacts &Facts = factsOf(Cond, true);
  const std::string &Key = Facts.Key;
  bool TakenValue = TrueEdge == Facts.KeyValue;
  const SourceManager &SM = Ctx.getSourceManager();
  const Stmt *Body = TrueEdge ? nullptr : loopBody(B.getTerminatorStmt());
  for (unsigned I = 0; I < Regions.size(); ++I) {
    const CaptureRegion &R = Regions[I];
    if (!State.Active.test(I))
      continue;
    if (!Key.empty() && R.CondKey == Key && R.CondValue != TakenValue) {
      // begun only when the condition had the other value
      State.Active.reset(I);
      continue;
    }
    if (Body && R.Api)
      for (const EndSite &End : EndSites)
        if (End.Group == R.Api->Group && End.Loc.isValid() &&
            SM.isPointWithin(End.Loc, Body->getBeginLoc(), Body->getEndLoc())) {
          State.Active.reset(I); // the loop's last iteration ends it
          break;
        }
  }
}

void RegionFinder::refineEdge(const CFGBlock &B, unsigned SuccIndex,
                              FlowState &State) const {
  // A switch on a constant argument or local takes the matching case only.
  if (const auto *Switch =
          dyn_cast_or_null<SwitchStmt>(B.getTerminatorStmt())) {
    if (auto V = boundValue(Switch->getCond()))
      if (!switchTakes(Switch, *(B.succ_begin() + SuccIndex), *V, Ctx))
        State.Reached = false;
    return;
  }
  if (B.succ_size() != 2)
    return;
  const Expr *Cond = B.getLastCondition();
  bool TrueEdge = SuccIndex == 0;
  if (auto V = boundValue(Cond); V && TrueEdge != (*V != 0)) {
    State.Reached = false; // the constant argument rules this side out
    return;
  }
  applyGuards(Cond, TrueEdge, State);
  if (State.Active.none())
    return;
  endRegionsRuledOut(Cond, TrueEdge, State);
  endRegionsOnEdge(B, Cond, TrueEdge, State);
}

RegionFinder::ConditionFacts &RegionFinder::factsOf(const Expr *Cond,
                                                    bool WithKey) const {
  auto [It, New] = Conditions.try_emplace(Cond);
  ConditionFacts &F = It->second;
  if (New)
    F.FirstUseWhenTrue = firstUseWhen(Cond, FnBody);
  if (WithKey && !F.HasKey) {
    F.Key = conditionKey(Cond, F.KeyValue, Ctx);
    F.HasKey = true;
  }
  return F;
}

const RegionApi *RegionFinder::cachedRegionApi(const CallExpr *Call) const {
  auto [It, New] = CallApis.try_emplace(Call, nullptr);
  if (New)
    It->second = regionApiOf(Call, Cat);
  return It->second;
}

void RegionFinder::setResult(CaptureRegion &R, const CallExpr *Call,
                             int64_t Success, const ParentMap &PM) const {
  const Expr *Result = Call;
  for (unsigned Depth = 0; Depth < 2; ++Depth) {
    const Stmt *P = PM.getParent(Result);
    while (P && isa<ImplicitCastExpr, ParenExpr, ExprWithCleanups>(P))
      P = PM.getParent(P);
    const auto *Conv = dyn_cast_or_null<CallExpr>(P);
    if (!Conv || isa<CXXOperatorCallExpr>(Conv))
      break;
    unsigned Arg = 0;
    while (Arg < Conv->getNumArgs() &&
           Conv->getArg(Arg)->IgnoreParenImpCasts() != Result)
      ++Arg;
    auto Converted =
        Arg < Conv->getNumArgs()
            ? convertedSuccess(directCallee(Conv), Arg, Success, Ctx)
            : std::nullopt;
    if (!Converted)
      break;
    Result = Conv;
    Success = *Converted;
  }
  R.Result = Result;
  R.SuccessValue = Success;
  if (const auto *C = dyn_cast<CallExpr>(Result))
    R.ResultVar = resultVariable(C, PM);
}

bool RegionFinder::beginFailedOn(const CaptureRegion &R, const Expr *Cond,
                                 bool CondTrue) const {
  if (!R.Result)
    return false;
  // The result, its local, or a const local copied from either through
  // casts (`const status_t tie = static_cast<status_t>(status);`, as
  // cuda-api-wrappers' throw_if_error_lazy expands).
  auto IsResult = [&](const Expr *E) {
    for (int Copies = 0; Copies < 3; ++Copies) {
      E = E->IgnoreParenCasts();
      if (E == R.Result)
        return true;
      const auto *DRE = dyn_cast<DeclRefExpr>(E);
      const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      if (!VD)
        return false;
      if (VD == R.ResultVar)
        return true;
      if (!VD->isLocalVarDecl() || !VD->getType().isConstQualified() ||
          !VD->getInit())
        return false;
      E = VD->getInit();
    }
    return false;
  };
  // The edge that needs a value other than success's has a failed begin.
  auto V = valueAtSuccess(Cond, IsResult, Ctx, R.SuccessValue);
  return V && CondTrue != *V;
}

/// The call whose result \p E is: the call itself, or a local initialised
/// with it (`cudaError_t e = (call);`, as error-check macros expand).
static const CallExpr *resultCall(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return Call;
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !VD->isLocalVarDecl() || !VD->getInit())
    return nullptr;
  return dyn_cast<CallExpr>(VD->getInit()->IgnoreParenImpCasts());
}

void RegionFinder::endWhereCheckedCallSucceeds(const Expr *Cond, bool CondTrue,
                                               FlowState &State) const {
  const CallExpr *Checked = nullptr;
  auto IsResult = [&](const Expr *E) {
    const CallExpr *Call = resultCall(E);
    if (Call)
      Checked = Call;
    return Call != nullptr;
  };
  auto V = valueAtSuccess(Cond, IsResult, Ctx);
  if (!V || CondTrue != *V || !Checked)
    return;
  // A synchronization or allocation the capture's mode refuses returns an
  // error under that capture: its success edge runs without it. Not so the
  // synchronous copies on the legacy stream (906): with a non-blocking
  // capture stream they succeed, eagerly.
  const ApiEntry *Entry = matchApi(Checked, Cat);
  if (!Entry ||
      (Entry->Class != Hazard::Sync && Entry->Class != Hazard::Allocation) ||
      llvm::StringRef(Entry->Error).contains("Implicit"))
    return;
  for (unsigned I = 0; I < Regions.size(); ++I)
    if (State.Active.test(I) &&
        Entry->behaviourIn(Regions[I].Mode) == Behaviour::Illegal)
      endOnPath(I, State, Checked->getBeginLoc());
}

void RegionFinder::endOnPath(unsigned I, FlowState &State,
                             SourceLocation At) const {
  State.Active.reset(I);
  auto &Ends = Regions[I].Ends;
  if (At.isValid() && !llvm::is_contained(Ends, At))
    Ends.push_back(At);
}

std::optional<int64_t> RegionFinder::boundValue(const Expr *Cond) const {
  if (!Cond)
    return std::nullopt;
  // Facts about expressions over the parameters (PathFacts.h).
  if (auto V = evaluateWith(Cond, Bindings, Ctx))
    return *V;
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Cond)) {
    for (const Binding &B : Bindings)
      if (B.Path.empty() && DRE->getDecl() == B.Param)
        return B.Value;
    // A local initialised with a constant and never written (the region's
    // own mode variable, a debug flag) decides branches on it.
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->isLocalVarDecl()) {
      auto [It, New] = LocalConstants.try_emplace(VD);
      if (New)
        It->second = constantValueIn(DRE, FnBody, Ctx);
      return It->second;
    }
    return constantInt(Cond, Ctx);
  }
  if (const auto *U = dyn_cast<UnaryOperator>(Cond);
      U && U->getOpcode() == UO_LNot)
    if (auto V = boundValue(U->getSubExpr()))
      return *V == 0;
  if (const auto *B = dyn_cast<BinaryOperator>(Cond)) {
    auto L = boundValue(B->getLHS());
    auto R = L ? boundValue(B->getRHS()) : std::nullopt;
    if (!L || !R) {
      if (!L)
        return std::nullopt;
      if (B->getOpcode() == BO_LAnd && *L == 0)
        return 0;
      if (B->getOpcode() == BO_LOr && *L != 0)
        return 1;
      return std::nullopt;
    }
    switch (B->getOpcode()) {
    case BO_EQ:
      return *L == *R;
    case BO_NE:
      return *L != *R;
    case BO_LAnd:
      return *L && *R;
    case BO_LOr:
      return *L || *R;
    default:
      return std::nullopt;
    }
  }
  return constantInt(Cond, Ctx);
}

std::string RegionFinder::answerStream(const Expr *E,
                                       const FlowState &State) const {
  llvm::SmallVector<const ValueDecl *, 2> Locals = Guards.localsRead(E);
  if (Locals.empty())
    return Guards.guardStream(E);
  const std::string *Key = State.freshGuard(Locals.front());
  return Key ? *Key : "";
}

bool RegionFinder::guardApplies(const Expr *Cond,
                                const FlowState &State) const {
  if (State.Active.none())
    return true;
  // An answer computed before the capture began is stale.
  for (const ValueDecl *V : Guards.localsRead(Cond))
    if (!State.freshGuard(V))
      return false;
  // A query of another stream says nothing about the capturing one.
  std::string Key = answerStream(Cond, State);
  if (Key.empty())
    return true;
  for (unsigned I = 0; I < Regions.size(); ++I)
    if (State.Active.test(I) &&
        (Regions[I].Key.empty() || Regions[I].Key == Key))
      return true;
  return false;
}

void RegionFinder::endGuardedRegions(const Expr *Cond, FlowState &State) const {
  std::string Key = answerStream(Cond, State);
  for (unsigned I = 0; I < Regions.size(); ++I)
    if (State.Active.test(I) &&
        (Key.empty() || Regions[I].Key.empty() || Regions[I].Key == Key))
      endOnPath(I, State, Cond->getBeginLoc());
}

void RegionFinder::solve() {
  unsigned N = Cfg->getNumBlockIDs();
  BlockEntry.assign(N, FlowState{});
  for (FlowState &S : BlockEntry)
    S.Active.resize(Regions.size());
  FlowState &Entry = BlockEntry[Cfg->getEntry().getBlockID()];
  Entry.Reached = true;
  if (CalleeMode)
    Entry.Active.set(0);

  PostOrderCFGView POV(Cfg.get());
  std::vector<const CFGBlock *> Order(POV.begin(), POV.end());
  std::reverse(Order.begin(), Order.end());
  bool Changed = true;
  // Monotone on a finite lattice: terminates. The bound is a safety net.
  for (unsigned Round = 0; Changed && Round < 4 * N + 8; ++Round) {
    Changed = false;
    for (const CFGBlock *B : Order) {
      FlowState State = BlockEntry[B->getBlockID()];
      if (!State.Reached)
        continue;
      for (const CFGElement &E : *B)
        transfer(E, State);
      unsigned SuccIndex = 0;
      for (const CFGBlock *Succ : B->succs()) {
        unsigned Index = SuccIndex++;
        if (!Succ)
          continue;
        // exit(), abort(), a throw: the function does not return this way,
        // so what is active there does not leave it (roles, exitState()).
        if (Succ == &Cfg->getExit() && B->hasNoReturnElement())
          continue;
        FlowState Out = State;
        refineEdge(*B, Index, Out);
        FlowState &Target = BlockEntry[Succ->getBlockID()];
        FlowState Before = Target;
        join(Target, Out);
        if (!equal(Before, Target))
          Changed = true;
      }
    }
  }
}

const FlowState &RegionFinder::exitState() const {
  static const FlowState Unreached;
  if (!Cfg)
    return Unreached;
  return BlockEntry[Cfg->getExit().getBlockID()];
}

void RegionFinder::forEachStatement(
    const std::function<void(const Stmt *, const FlowState &, bool)> &Visit,
    const std::function<void(const CFGAutomaticObjDtor &, const FlowState &)>
        &VisitDtor) const {
  if (!Cfg)
    return;
  for (const CFGBlock *B : *Cfg) {
    FlowState State = BlockEntry[B->getBlockID()];
    if (!State.Reached)
      continue;
    for (const CFGElement &E : *B) {
      if (auto S = E.getAs<CFGStmt>())
        Visit(S->getStmt(), State, false);
      else if (auto Dtor = E.getAs<CFGAutomaticObjDtor>(); Dtor && VisitDtor)
        VisitDtor(*Dtor, State);
      transfer(E, State);
    }
    if (const Stmt *T = B->getTerminatorStmt())
      Visit(T, State, true);
  }
}

void RegionFinder::forEachNormalExit(
    const std::function<void(const NormalExit &, const FlowState &)> &Visit)
    const {
  if (!Cfg)
    return;
  for (const CFGBlock *B : Cfg->getExit().preds()) {
    if (!B || B->hasNoReturnElement() || !BlockEntry[B->getBlockID()].Reached)
      continue;
    if (isa_and_nonnull<CXXThrowExpr>(B->getTerminatorStmt()))
      continue;
    FlowState State = BlockEntry[B->getBlockID()];
    NormalExit X;
    bool Throws = false;
    for (const CFGElement &E : *B) {
      if (auto S = E.getAs<CFGStmt>()) {
        if (const auto *R = dyn_cast<ReturnStmt>(S->getStmt()))
          X.At = R;
        Throws |= isa<CXXThrowExpr>(S->getStmt());
      }
      transfer(E, State);
    }
    if (Throws)
      continue;
    // What the edge into the exit says (`if (use_graph) end();` falls out
    // of the function on its false edge, where the region begun under the
    // same condition is not active).
    unsigned Index = 0;
    for (const CFGBlock *Succ : B->succs()) {
      if (Succ == &Cfg->getExit()) {
        FlowState Out = State;
        refineEdge(*B, Index, Out);
        Visit(X, Out);
        break;
      }
      ++Index;
    }
  }
}

/// Whether \p Ret reports a failure: it returns a nonzero constant of an
/// enumeration (a status such as cudaErrorIllegalState; success is zero in
/// every runtime and library capture-lint knows).
static bool returnsErrorStatus(const ReturnStmt *Ret, const ASTContext &Ctx) {
  const Expr *V = Ret ? Ret->getRetValue() : nullptr;
  if (!V || !V->IgnoreParenImpCasts()->getType()->isEnumeralType())
    return false;
  auto Value = constantInt(V, Ctx);
  return Value && *Value != 0;
}

/// Whether \p S is inside a `catch` handler of \p Body.
static bool insideHandler(const Stmt *S, const Stmt *Body,
                          const SourceManager &SM) {
  SourceLocation At = SM.getExpansionLoc(S->getBeginLoc());
  bool Inside = false;
  walkStatements(Body, [&](const Stmt *C) {
    if (const auto *Catch = dyn_cast<CXXCatchStmt>(C))
      Inside |= SM.isPointWithin(At, SM.getExpansionLoc(Catch->getBeginLoc()),
                                 SM.getExpansionLoc(Catch->getEndLoc()));
    return !Inside;
  });
  return Inside;
}

std::optional<FlowState> RegionFinder::lastExitState() const {
  const SourceManager &SM = Ctx.getSourceManager();
  std::optional<FlowState> Last;
  SourceLocation LastLoc;
  forEachNormalExit([&](const NormalExit &X, const FlowState &State) {
    // A path that returns an error status, or returns from a `catch`
    // handler, is an error path, not the main.
    if (returnsErrorStatus(X.At, Ctx) ||
        (X.At && insideHandler(X.At, FnBody, SM)))
      return;
    // The end of the body comes after every return.
    SourceLocation L =
        X.At ? fileLoc(X.At->getBeginLoc(), SM) : SourceLocation();
    if (Last && L == LastLoc) { // paths that meet at one exit
      Last->Active |= State.Active;
    } else if (!Last ||
               (LastLoc.isValid() &&
                (L.isInvalid() || SM.isBeforeInTranslationUnit(LastLoc, L)))) {
      Last = State;
      LastLoc = L;
    }
  });
  return Last;
}

bool RegionFinder::unwindingMayEnd(unsigned I) const {
  if (!Cfg || I >= Regions.size())
    return false;
  const CaptureRegion &R = Regions[I];
  for (const CFGBlock *B : *Cfg)
    for (const CFGElement &E : *B)
      if (auto Dtor = E.getAs<CFGAutomaticObjDtor>()) {
        const VarDecl *VD = Dtor->getVarDecl();
        if (VD == R.Guard || destructorCloser(VD) ||
            (VD == R.StreamVar && ownsStream(VD)))
          return true;
      }
  return false;
}

llvm::SmallPtrSet<const Stmt *, 16> RegionFinder::unreachedStatements() const {
  llvm::SmallPtrSet<const Stmt *, 16> Out;
  if (!Cfg)
    return Out;
  for (const CFGBlock *B : *Cfg) {
    if (BlockEntry[B->getBlockID()].Reached)
      continue;
    for (const CFGElement &E : *B)
      if (auto S = E.getAs<CFGStmt>())
        Out.insert(S->getStmt());
  }
  return Out;
}

} // namespace capture_lint
