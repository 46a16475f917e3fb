//===- PyRoles.cpp - Functions that begin or end a capture for callers ----===//
//
// Runners split a capture across methods: `begin()` calls
// `self.graph.capture_begin()` and returns with the capture open, `end()`
// calls `self.graph.capture_end()`, and a third method does
// `self.begin(); self.model(x); self.end()`. As the C++ roles do
// (docs/regions.md), a function of the program that begins a capture it
// never ends is an opener, and one that ends a capture it never begins is a
// closer: a call to an opener begins a region in the caller, with a note at
// the capture_begin inside it, and a call to a closer ends it.
//
//===----------------------------------------------------------------------===//

#include "PyWalkerImpl.h"

#include "llvm/Support/Path.h"

namespace capture_lint::python::detail {

/// The program's function \p X calls for its effect (a call that is a
/// statement of its own: `self.begin()`), or null.
static PyFunction *calledForEffect(Walker &W, PyFunction &F, TSNode X) {
  if (!F.isStatement(X))
    return nullptr;
  PyFunction *C = W.calledFunction(F, X);
  return C && C != &F && is(C->Node, "function_definition") ? C : nullptr;
}

const PyCaptureRole &captureRoleOf(PyContext &Ctx, PyFunction &F) {
  static const PyCaptureRole None;
  if (auto It = Ctx.Roles.find(&F); It != Ctx.Roles.end())
    return It->second;
  if (!is(F.Node, "function_definition") || !F.Module || !F.Module->Src ||
      !Ctx.RolesInProgress.insert(&F).second)
    return None; // a lambda, or a cycle of helpers
  PyCaptureRole R;
  const PySource &S = *F.Module->Src;
  Walker W(Ctx, *F.Module, &F, /*Summary=*/true);
  for (TSNode X : F.Calls) { // its own code's calls, in the order written
    TSNode Callee = field(X, "function");
    const RegionApi *Api =
        is(Callee, "attribute")
            ? Ctx.Cat.regionMethod(S.text(field(Callee, "attribute")).str())
            : nullptr;
    if (Api && Api->Kind == RegionApi::End) {
      R.Ends = true;
    } else if (Api && Api->Kind == RegionApi::Begin) {
      if (!R.BeginApi)
        R.Begin = X, R.BeginSrc = &S, R.BeginApi = Api;
    } else if (PyFunction *C = calledForEffect(W, F, X)) {
      const PyCaptureRole &CR = captureRoleOf(Ctx, *C);
      if (CR.opens() && !R.BeginApi) {
        R.Begin = CR.Begin, R.BeginSrc = CR.BeginSrc, R.BeginApi = CR.BeginApi;
        R.Via = {C->Display};
        R.Via.insert(R.Via.end(), CR.Via.begin(), CR.Via.end());
      } else if (CR.closes()) {
        R.Ends = true;
      }
    }
  }
  Ctx.RolesInProgress.erase(&F);
  return Ctx.Roles[&F] = std::move(R);
}

bool opensForCaller(PyContext &Ctx, PyFunction &F) {
  return captureRoleOf(Ctx, F).opens();
}

bool Walker::captureRole(TSNode Call) {
  if (Summary || !Fn)
    return false;
  PyFunction *Callee = calledFunction(*Fn, Call);
  if (!Callee || Callee == Fn || !is(Callee->Node, "function_definition"))
    return false;
  const PyCaptureRole &C = captureRoleOf(Ctx, *Callee);
  if (C.opens()) {
    if (Active)
      return false; // already capturing: the walk goes into it as a call
    const PySource &CS = *C.BeginSrc;
    TSNode Graph = field(field(C.Begin, "function"), "object");
    std::string Through;
    for (const std::string &V : C.Via)
      Through += ", which calls '" + V + "'";
    PyRegion Region;
    Region.Begin = {&S, begin(Call)};
    Region.Mode = regionMode(field(C.Begin, "arguments"), *C.BeginApi, CS);
    Region.Stream = CS.text(Graph).str();
    Region.Graph = Region.Stream;
    Region.Headline = "capture into graph '" + CS.text(Graph).str() + "'" +
                      " begins with this call to '" + Callee->Display + "'" +
                      Through + ", whose capture_begin (" +
                      llvm::sys::path::filename(CS.path()).str() + ":" +
                      std::to_string(CS.line(begin(C.Begin))) +
                      ") leaves it open, mode " + modeWords(Region.Mode);
    activate(std::move(Region));
    OpenedByBegin = true;
    OpenExits.clear();
    HandlerEnds = false;
    return true;
  }
  if (C.closes() && Active && OpenedByBegin) {
    endCapture(Call);
    return true;
  }
  return false;
}

} // namespace capture_lint::python::detail
