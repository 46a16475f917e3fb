//===- PyParamCalls.cpp - What callers pass as arguments ------------------===//
//
// `def apply(fn, x): return fn(x)` called in a region as `apply(step, x)`
// runs `step` under capture. A function's summary is walked once, without
// its callers' arguments, so a call of one of its parameters is recorded
// there (PyParamCall) and resolved at each call site: the callables passed
// for that parameter are followed from the parameter's call, with the chain
// region -> apply -> fn(x) -> step -> hazard. A parameter that is itself
// passed on (`def outer(f): apply(f, 1)`) becomes the caller's own
// parameter call, so the resolution reaches through any depth of helpers.
// An argument nobody here can see is named in the unseen-calls warning.
//
// Values are resolved the same way: `def stage(ids): return ids.cuda()` is
// a hazard only for a caller that passes a CPU tensor, so the summary keeps
// it with what the parameter must be (PyParamHazard), and each call site
// checks the value it passes.
//
//===----------------------------------------------------------------------===//

#include "PyWalkerImpl.h"

namespace capture_lint::python::detail {

/// The name of the parameter at \p Index of \p Def, or "" (a `*args`, a
/// lambda's or a position past the end).
static std::string parameterName(const PySource &S, TSNode Def,
                                 unsigned Index) {
  TSNode Params = field(Def, "parameters");
  if (isNull(Params) || Index >= namedCount(Params))
    return "";
  TSNode P = named(Params, Index);
  if (is(P, "identifier"))
    return S.text(P).str();
  if (is(P, "typed_parameter"))
    return S.text(named(P, 0)).str();
  if (is(P, "default_parameter") || is(P, "typed_default_parameter"))
    return S.text(field(P, "name")).str();
  return "";
}

bool Walker::noteParamCall(TSNode N, const EvaluatedCall &C) {
  if (!Summary || C.FnValue.Param < 0 || C.FnValue.known() || C.FnValue.Library)
    return false;
  PyParamCall P;
  P.Index = static_cast<unsigned>(C.FnValue.Param);
  P.Site = {&S, begin(N)};
  P.Text = S.text(stripParens(C.Function)).str();
  SummaryParamCalls.push_back(std::move(P));
  return true;
}

const PyValue *Walker::passedFor(const PyFunction &Callee, unsigned Index,
                                 const EvaluatedCall &Call) const {
  // A method called on an object (`self.apply(fn)`) gets the object as its
  // first parameter; the call's arguments start at the second.
  unsigned Bound =
      Callee.Owner && is(stripParens(Call.Function), "attribute") ? 1 : 0;
  if (Bound && Index == 0)
    return &Call.Receiver; // self
  if (Index >= Bound && Index - Bound < Call.Facts.Args.size())
    return &Call.Facts.Args[Index - Bound];
  std::string Name = parameterName(*Callee.Module->Src, Callee.Node, Index);
  auto It = Call.Facts.Keywords.find(Name);
  return Name.empty() || It == Call.Facts.Keywords.end() ? nullptr
                                                         : &It->second;
}

/// What \p Callee's summary keeps in \p Per, copied: following it may
/// summarize other functions, which adds to the map.
template <typename T>
static std::vector<T>
summaryPart(const std::map<const PyFunction *, std::vector<T>> &Per,
            const PyFunction *Callee) {
  auto Found = Per.find(Callee);
  return Found == Per.end() ? std::vector<T>() : Found->second;
}

void Walker::followParamCalls(PyFunction *Callee, TSNode Site,
                              const EvaluatedCall &Call) {
  std::vector<PyParamCall> Calls = summaryPart(Ctx.ParamCalls, Callee);
  PyStep Here{{&S, begin(Site)}, Callee->Display};
  for (const PyParamCall &P : Calls) {
    const PyValue *Arg = passedFor(*Callee, P.Index, Call);
    if (!Arg)
      continue;
    std::vector<PyStep> Down = {Here};
    Down.insert(Down.end(), P.Chain.begin(), P.Chain.end());
    std::vector<PyFunction *> Targets = callsRun(Ctx.Prog, *Arg);
    if (Targets.empty() && Summary && Arg->Param >= 0 && !Arg->known()) {
      // Passed on: the caller's parameter, called down there.
      SummaryParamCalls.push_back(
          {static_cast<unsigned>(Arg->Param), P.Site, P.Text, Down});
      continue;
    }
    if (Targets.empty() && !Arg->Library && Active && !Quiet)
      // Named as the caller wrote it, where it is passed.
      Ctx.noteUnseen(Arg->Opaque.empty() ? P.Text : Arg->Opaque,
                     {&S, begin(Site)});
    for (PyFunction *T : Targets) {
      if (Ctx.Depth >= Ctx.MaxCallDepth)
        break;
      for (const PyHazard &H : summarize(Ctx, T)) {
        PyHazard Copy = H;
        std::vector<PyStep> Chain = Down;
        Chain.push_back({P.Site, T->Display});
        Copy.Chain.insert(Copy.Chain.begin(), Chain.begin(), Chain.end());
        record(std::move(Copy));
      }
    }
  }
}

void Walker::recordIf(PyHazard H, std::vector<PyParamNeed> Needs) {
  if (Needs.empty()) {
    record(std::move(H));
    return;
  }
  if (!Summary || !Active || Quiet)
    return; // a region's own parameter: nobody here says what it holds
  if (!H.Path && !PathConds.empty())
    H.Path = PathConds.back();
  SummaryParamHazards.push_back({std::move(H), std::move(Needs)});
}

/// A python_when kind in words ("a CPU tensor").
static std::string kindWords(llvm::StringRef Kind) {
  if (Kind == "cpu-tensor")
    return "a CPU tensor";
  if (Kind == "bool-mask")
    return "a boolean mask";
  if (Kind == "host-data")
    return "host data";
  if (Kind == "event")
    return "an event";
  if (Kind == "stream")
    return "a stream";
  return "a " + Kind.str();
}

bool Walker::callsOwnSelf(const EvaluatedCall &Call) const {
  TSNode F = stripParens(Call.Function);
  return Summary && Fn && Fn->Owner && is(F, "attribute") &&
         S.text(stripParens(field(F, "object"))) == "self";
}

void Walker::followParamHazards(PyFunction *Callee, TSNode Site,
                                const EvaluatedCall &Call) {
  for (const PyParamHazard &P : summaryPart(Ctx.ParamHazards, Callee)) {
    std::vector<PyParamNeed> Left; // needs on this function's parameters
    std::vector<std::string> Passed;
    bool Holds = true;
    for (const PyParamNeed &N : P.Needs) {
      const PyValue *Arg = passedFor(*Callee, N.Index, Call);
      if (Arg && hasKind(*Arg, N.Kind)) {
        if (N.Kind != "persistent") // the object itself: nothing to name
          Passed.push_back(
              kindWords(N.Kind) + " for '" +
              parameterName(*Callee->Module->Src, Callee->Node, N.Index) + "'");
        continue;
      }
      if (Arg && unknownParameter(*Arg))
        Left.push_back({static_cast<unsigned>(Arg->Param), N.Kind});
      else if (N.Kind == "persistent" && callsOwnSelf(Call))
        Left.push_back({0, N.Kind}); // whatever this method's self is
      else
        Holds = false;
    }
    if (!Holds)
      continue;
    PyHazard Copy = P.Hazard;
    Copy.Chain.insert(Copy.Chain.begin(),
                      PyStep{{&S, begin(Site)}, Callee->Display});
    for (const std::string &What : Passed)
      Copy.Extra.push_back({{&S, begin(Site)}, "it passes " + What + " here"});
    recordIf(std::move(Copy), std::move(Left));
  }
}

} // namespace capture_lint::python::detail
