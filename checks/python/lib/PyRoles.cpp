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

namespace {

/// The region methods (capture_begin, capture_end) \p F calls in its own
/// code, by role: the first begin, and whether it calls an end.
struct CaptureCalls {
  TSNode Begin{};
  const RegionApi *BeginApi = nullptr;
  bool Ends = false;
};

CaptureCalls captureCallsOf(const PyContext &Ctx, const PyFunction &F) {
  CaptureCalls Out;
  const PySource &S = *F.Module->Src;
  // A cheap look first: most functions name neither.
  llvm::StringRef Text = S.text(F.Node);
  if (!Text.contains("capture_begin") && !Text.contains("capture_end"))
    return Out;
  visitOwnCode(field(F.Node, "body"), [&](TSNode X) {
    if (!is(X, "call"))
      return true;
    TSNode Callee = field(X, "function");
    if (!is(Callee, "attribute"))
      return true;
    const RegionApi *R =
        Ctx.Cat.regionMethod(S.text(field(Callee, "attribute")).str());
    if (R && R->Kind == RegionApi::End)
      Out.Ends = true;
    else if (R && R->Kind == RegionApi::Begin && !Out.BeginApi) {
      Out.Begin = X;
      Out.BeginApi = R;
    }
    return true;
  });
  return Out;
}

} // namespace

bool opensForCaller(const PyContext &Ctx, const PyFunction &F) {
  if (!is(F.Node, "function_definition"))
    return false;
  CaptureCalls C = captureCallsOf(Ctx, F);
  return C.BeginApi && !C.Ends;
}

bool Walker::captureRole(TSNode Call) {
  if (Summary || !Fn)
    return false;
  PyFunction *Callee = calledFunction(*Fn, Call);
  if (!Callee || Callee == Fn || !is(Callee->Node, "function_definition"))
    return false;
  CaptureCalls C = captureCallsOf(Ctx, *Callee);
  if (C.BeginApi && !C.Ends) { // an opener
    if (Active)
      return false; // already capturing: the walk goes into it as a call
    const PySource &CS = *Callee->Module->Src;
    TSNode Graph = field(field(C.Begin, "function"), "object");
    PyRegion Region;
    Region.Begin = {&S, begin(Call)};
    Region.Mode = regionMode(field(C.Begin, "arguments"), *C.BeginApi, CS);
    Region.Stream = CS.text(Graph).str();
    Region.Headline = "capture into graph '" + CS.text(Graph).str() + "'" +
                      " begins with this call to '" + Callee->Display +
                      "', whose capture_begin (" +
                      llvm::sys::path::filename(CS.path()).str() + ":" +
                      std::to_string(CS.line(begin(C.Begin))) +
                      ") leaves it open, mode " + modeWords(Region.Mode);
    activate(std::move(Region));
    OpenedByBegin = true;
    OpenExits.clear();
    HandlerEnds = false;
    return true;
  }
  if (C.Ends && !C.BeginApi && Active && OpenedByBegin) { // a closer
    endCapture(Call);
    return true;
  }
  return false;
}

} // namespace capture_lint::python::detail
