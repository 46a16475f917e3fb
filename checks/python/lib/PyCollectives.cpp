//===- PyCollectives.cpp - Collectives under branches on the rank ---------===//
//
// The walker's part of capture-collective: it keeps the branches and loops
// on the rank it is inside (a condition reading a name with the word
// "rank": `dist.get_rank() == 0`, `self.rank`, `range(local_rank)`), and at
// each call that makes a collective (the catalog's `collectives`, or a
// function of the program that makes one) under such a branch whose other
// arms make none, records the rule's hazard (rules/Collective.cpp).
//
//===----------------------------------------------------------------------===//

#include "PyWalkerImpl.h"

#include "capture_lint/RankNames.h"

namespace capture_lint::python::detail {

/// Whether \p Cond reads a name with the word "rank" in it.
static bool dependsOnRank(const PySource &S, TSNode Cond) {
  bool Found = false;
  visitNamed(Cond, [&](TSNode N) {
    if (is(N, "identifier") && namesRank(S.text(N).str()))
      Found = true;
    return Found ? VisitNext::Stop : VisitNext::Into;
  });
  return Found;
}

void Walker::underRankBranch(TSNode Cond, TSNode Other, TSNode Exclude,
                             bool Loop, llvm::function_ref<void()> Walk) {
  bool Rank = Active && !isNull(Cond) && dependsOnRank(S, Cond);
  if (Rank)
    RankArms.push_back({Cond, Other, Exclude, Loop});
  Walk();
  if (Rank)
    RankArms.pop_back();
}

bool Walker::makesCollective(TSNode Root, TSNode Exclude) {
  bool Found = false;
  visitNamed(Root, [&](TSNode N) {
    if ((!isNull(Exclude) && ts_node_eq(N, Exclude)) ||
        is(N, "function_definition") || is(N, "class_definition"))
      return VisitNext::Skip;
    if (is(N, "call")) {
      PyFunction *Callee = Fn ? calledFunction(*Fn, N) : nullptr;
      Found = Ctx.Cat.collective(fullName(field(N, "function"))) ||
              (Callee && Callee != Fn && collectiveOf(*Callee));
    }
    return Found ? VisitNext::Stop : VisitNext::Into;
  });
  return Found;
}

std::optional<PySite> Walker::collectiveOf(PyFunction &F) {
  if (auto It = Ctx.Collectives.find(&F); It != Ctx.Collectives.end())
    return It->second;
  Ctx.Collectives[&F] = std::nullopt; // a cycle of helpers makes none
  if (!F.Module || !F.Module->Src || !is(F.Node, "function_definition"))
    return std::nullopt;
  Walker W(Ctx, *F.Module, &F, /*Summary=*/true);
  std::optional<PySite> Made;
  visitOwnCode(field(F.Node, "body"), [&](TSNode X) {
    if (!is(X, "call"))
      return true;
    if (Ctx.Cat.collective(W.fullName(field(X, "function"))))
      Made = PySite{F.Module->Src.get(), begin(X)};
    else if (PyFunction *Callee = W.calledFunction(F, X);
             Callee && Callee != &F)
      Made = collectiveOf(*Callee);
    return !Made;
  });
  return Ctx.Collectives[&F] = Made;
}

void Walker::checkUnevenCollective(TSNode N, const EvaluatedCall &C) {
  if (!Active || Quiet || RankArms.empty())
    return;
  std::optional<PySite> Made;
  if (Ctx.Cat.collective(C.Full))
    Made = PySite{&S, begin(N)};
  else if (PyFunction *Callee = Fn ? calledFunction(*Fn, N) : nullptr;
           Callee && Callee != Fn)
    Made = collectiveOf(*Callee);
  if (!Made)
    return;
  const RankArm &Arm = RankArms.back();
  // Every arm makes a collective: every rank records one.
  if (!Arm.Loop && !isNull(Arm.Other) &&
      makesCollective(Arm.Other, Arm.Exclude))
    return;
  std::string Cond = quote(Arm.Cond);
  PyHazard H =
      rules::unevenCollective(quote(N), Cond.substr(1, Cond.size() - 2),
                              Arm.Loop, {&S, begin(N)}, {&S, begin(Arm.Cond)});
  if (Made->Src != &S || Made->Offset != begin(N))
    H.Extra.push_back({*Made, "the collective is made here"});
  // The branch on the rank is what the finding is about, not a path the
  // capture may not take: only the conditions around it make it a remark.
  for (auto P = PathConds.rbegin(); P != PathConds.rend(); ++P)
    if (!(P->Site.Src == &S && P->Site.Offset == begin(Arm.Cond))) {
      H.Path = *P;
      break;
    }
  Active->Hazards.push_back(std::move(H));
}

} // namespace capture_lint::python::detail
