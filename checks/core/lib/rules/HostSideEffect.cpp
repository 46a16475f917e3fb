//===- HostSideEffect.cpp - capture-host-side-effect ----------------------===//
//
// Host state that outlives the region (a member reached through `this`, a
// pointer or a reference; a global; a static), updated from its own value
// inside it: `++launches_`, `stats->bytes += n`, `step = step + 1`. A graph
// records GPU work only: the update runs once, when the graph is captured,
// and never on replay, so code that reads the state after replays sees the
// capture-time value.
//
// Precision first: plain stores (`captured_ = true;`), locals and updates
// of device memory are not reported; an update the region passes to
// captured work (a kernel argument, a call given a stream) is
// capture-frozen-host-value's finding, and is reported there only. Updates
// are those FrozenValues notes, in the statements the region runs.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

#include "../FrozenValues.h"
#include "capture_lint/RegionFinder.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace capture_lint::rules {

std::vector<ClangFinding> hostSideEffect(const FunctionRuleInput &In) {
  std::vector<ClangFinding> Out;
  const Stmt *Body = In.Def->getBody();
  if (!Body || In.RF.regions().empty())
    return Out;
  FrozenValues Frozen(Body, In.Ctx);
  std::vector<std::pair<const Stmt *, unsigned>> InRegion; // with its region
  In.RF.forEachStatement([&](const Stmt *S, const FlowState &St, bool Term) {
    if (Term || !St.inRegion())
      return;
    Frozen.noteUpdate(S);
    InRegion.push_back({S, static_cast<unsigned>(St.Active.find_first())});
  });
  // Updates that reach captured work are capture-frozen-host-value's.
  llvm::DenseSet<unsigned> Carried; // by the update's raw location
  for (const auto &[S, Region] : InRegion) {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call || !(isa<CUDAKernelCallExpr>(Call) || passesStream(Call)))
      continue;
    for (const Expr *Arg : Call->arguments())
      if (auto C = Frozen.carriedBy(Arg))
        Carried.insert(C->UpdateLoc.getRawEncoding());
  }
  for (const auto &[Text, Loc] : Frozen.updates()) {
    if (Carried.count(Loc.getRawEncoding()))
      continue;
    unsigned Region = 0;
    for (const auto &[S, R] : InRegion)
      if (S->getSourceRange().getBegin() <= Loc &&
          Loc <= S->getSourceRange().getEnd())
        Region = R;
    ClangFinding F = regionFinding(
        CheckKind::HostSideEffect, In.RF.regions()[Region], Loc,
        "'" + Text +
            "' is updated here, host state that outlives the region: a "
            "graph records GPU work only, so the update runs once, when the "
            "graph is captured, and never on replay: after any number of "
            "launches '" +
            Text +
            "' holds its capture-time value; move the update out of the "
            "region, next to the cudaGraphLaunch that stands for this work, "
            "or keep the state in device memory and update it in a captured "
            "kernel",
        In.Ctx);
    F.Level = Severity::Warning;
    Out.push_back(std::move(F));
  }
  return Out;
}

} // namespace capture_lint::rules
