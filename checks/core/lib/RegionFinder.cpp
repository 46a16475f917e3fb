//===- RegionFinder.cpp - Capture regions on the CFG ----------------------===//

#include "capture_lint/RegionFinder.h"
#include "capture_lint/ApiMatch.h"
#include "capture_lint/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/Analysis/Analyses/PostOrderCFGView.h"

using namespace clang;

namespace capture_lint {

const RegionApi *RegionFinder::regionApiOf(const CallExpr *Call,
                                           const Catalog &Cat) {
  if (!Call)
    return nullptr;
  return Cat.findRegionApi(catalogName(Call->getDirectCallee()));
}

/// The expression naming the stream (or graph object) of a region call.
static const Expr *regionStreamExpr(const CallExpr *Call,
                                    const RegionApi &Api) {
  if (Api.StreamArg < 0) {
    if (const auto *M = dyn_cast<CXXMemberCallExpr>(Call))
      return M->getImplicitObjectArgument();
    return nullptr;
  }
  if (static_cast<unsigned>(Api.StreamArg) < Call->getNumArgs())
    return Call->getArg(Api.StreamArg);
  return nullptr;
}

CaptureMode modeOfBegin(const CallExpr *Begin, const RegionApi &Api,
                        const ASTContext &Ctx) {
  if (!Api.ModeArg || *Api.ModeArg >= Begin->getNumArgs())
    return Api.DefaultMode;
  auto V = constantInt(Begin->getArg(*Api.ModeArg), Ctx);
  if (!V || *V < 0 || *V > 2)
    return CaptureMode::Unknown;
  return static_cast<CaptureMode>(*V);
}

RegionFinder::RegionFinder(const Decl *D, const Stmt *Body, ASTContext &Ctx,
                           const Catalog &Cat, bool CalleeMode)
    : Ctx(Ctx), Cat(Cat), CalleeMode(CalleeMode), Guards(Cat, Ctx) {
  if (!Body)
    return;
  CFG::BuildOptions Opts;
  Opts.setAllAlwaysAdd();
  Opts.AddImplicitDtors = false;
  Opts.AddTemporaryDtors = false;
  Opts.AddCXXDefaultInitExprInCtors = true;
  Cfg = CFG::buildCFG(D, const_cast<Stmt *>(Body), &Ctx, Opts);
  if (!Cfg)
    return;
  Guards.scan(Body);
  collectRegions();
  solve();
}

void RegionFinder::collectRegions() {
  if (CalleeMode)
    Regions.push_back(CaptureRegion{}); // the caller's region
  for (const CFGBlock *B : *Cfg)
    for (const CFGElement &E : *B)
      if (auto S = E.getAs<CFGStmt>())
        if (const auto *Call = dyn_cast<CallExpr>(S->getStmt()))
          if (const RegionApi *Api = regionApiOf(Call, Cat);
              Api && Api->Kind == RegionApi::Begin) {
            CaptureRegion R;
            R.Begin = Call;
            R.Api = Api;
            R.Mode = modeOfBegin(Call, *Api, Ctx);
            const Expr *StreamE = regionStreamExpr(Call, *Api);
            R.Stream = sourceText(StreamE, Ctx);
            R.Key = streamKey(StreamE);
            Regions.push_back(std::move(R));
          }
}

void RegionFinder::transfer(const Stmt *S, FlowState &State) const {
  const auto *Call = dyn_cast<CallExpr>(S);
  if (!Call)
    return;
  if (const RegionApi *Api = regionApiOf(Call, Cat)) {
    if (Api->Kind == RegionApi::Begin) {
      for (unsigned I = 0; I < Regions.size(); ++I)
        if (Regions[I].Begin == Call)
          State.Active.set(I);
      return;
    }
    std::string Key = streamKey(regionStreamExpr(Call, *Api));
    for (unsigned I = 0; I < Regions.size(); ++I) {
      CaptureRegion &R = Regions[I];
      if (!State.Active.test(I))
        continue;
      bool Matches = !R.Api || (R.Api->Group == Api->Group &&
                                (R.Key.empty() || Key.empty() || R.Key == Key));
      if (Matches) {
        State.Active.reset(I);
        auto &Ends = R.Ends;
        if (std::find(Ends.begin(), Ends.end(), Call) == Ends.end())
          Ends.push_back(Call);
      }
    }
    if (State.Active.none()) {
      State.PendingHostCopies.clear();
      State.PendingCopyCalls.clear();
    }
    return;
  }
  if (!State.Active.any() || State.Guarded)
    return;
  if (const ApiEntry *E = matchApi(Call, Cat))
    if (E->behaviourIn(CaptureMode::Global) == Behaviour::Captured)
      if (const ValueDecl *V = deviceToHostDestination(Call, *E, Ctx))
        if (State.PendingHostCopies.insert(V).second)
          State.PendingCopyCalls.push_back({V, Call});
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
  for (const auto &P : From.PendingCopyCalls)
    if (Into.PendingHostCopies.insert(P.first).second)
      Into.PendingCopyCalls.push_back(P);
}

bool RegionFinder::equal(const FlowState &A, const FlowState &B) const {
  return A.Reached == B.Reached && A.Active == B.Active &&
         A.Guarded == B.Guarded &&
         A.PendingHostCopies.size() == B.PendingHostCopies.size();
}

/// The state leaving \p B along its successor edge \p SuccIndex, refined by
/// a capture-status guard in the block's condition.
static void refineEdge(const CFGBlock &B, unsigned SuccIndex,
                       const GuardRecognizer &Guards, FlowState &State) {
  if (B.succ_size() != 2)
    return;
  if (auto NotCapturingWhenTrue = Guards.notCapturingWhen(B.getLastCondition()))
    if ((SuccIndex == 0) == *NotCapturingWhenTrue)
      State.Guarded = true;
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
        if (auto S = E.getAs<CFGStmt>())
          transfer(S->getStmt(), State);
      unsigned SuccIndex = 0;
      for (const CFGBlock *Succ : B->succs()) {
        unsigned Index = SuccIndex++;
        if (!Succ)
          continue;
        FlowState Out = State;
        refineEdge(*B, Index, Guards, Out);
        FlowState &Target = BlockEntry[Succ->getBlockID()];
        FlowState Before = Target;
        join(Target, Out);
        if (!equal(Before, Target))
          Changed = true;
      }
    }
  }
}

void RegionFinder::forEachStatement(
    const std::function<void(const Stmt *, const FlowState &, bool)> &Visit)
    const {
  if (!Cfg)
    return;
  for (const CFGBlock *B : *Cfg) {
    FlowState State = BlockEntry[B->getBlockID()];
    if (!State.Reached)
      continue;
    for (const CFGElement &E : *B) {
      if (auto S = E.getAs<CFGStmt>()) {
        Visit(S->getStmt(), State, false);
        transfer(S->getStmt(), State);
      }
    }
    if (const Stmt *T = B->getTerminatorStmt())
      Visit(T, State, true);
  }
}

} // namespace capture_lint
