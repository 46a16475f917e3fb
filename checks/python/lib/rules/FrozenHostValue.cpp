//===- FrozenHostValue.cpp - capture-frozen-host-value, for Python -------===//
//
// Host state a region updates and hands to captured work: a graph records the
// arguments of the work it captures (a torch op's Python scalars, a Triton
// launch's arguments) when the capture runs. Host state the region updates
// (`self.step += 1`, `global calls; calls += 1`) and then passes to such
// work keeps its capture-time value on every replay: replays run the
// kernels, not the Python that updated it. The walker notes the updates as
// it walks, tags values read from the updated state (through locals too),
// and checks the arguments of captured work.
//
// Simplifications: an update and the use it reaches are in one function
// (the region's, or a function it calls); a counter is taken to be host
// data unless it is known to be a tensor (`self.step = torch.zeros(1)`
// makes `self.step += 1` a captured in-place op, not a finding).
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

#include "capture_lint/CheckWords.h"

#include "llvm/ADT/STLExtras.h"

#include "../PyWalkerImpl.h"

namespace capture_lint::python::detail {

/// Whether \p Target names state that outlives the call: an attribute of
/// `self`, of an argument or of a module, or a name declared `global`.
bool Walker::persistentState(TSNode Target) const {
  Target = stripParens(Target);
  if (is(Target, "identifier"))
    return DeclaredGlobals.count(S.text(Target).str());
  if (!is(Target, "attribute"))
    return false;
  std::string Dotted = dottedName(S, Target);
  if (Dotted.empty())
    return false;
  std::string Head = llvm::StringRef(Dotted).split('.').first.str();
  if (Head == "self" || Head == "cls")
    return true;
  auto It = Vars.find(Head);
  if (It == Vars.end())
    return true;                    // a module or a global object
  return It->second.Opaque == Head; // an argument, not a local made here
}

/// Records `STATE += v`, `STATE -= v`, `STATE = STATE + v` (host numbers)
/// inside the region.
void Walker::noteUpdate(TSNode Assign) {
  if (!Active || Quiet)
    return;
  TSNode Left = field(Assign, "left"), Right = field(Assign, "right");
  if (isNull(Left) || isNull(Right) || !persistentState(Left))
    return;
  llvm::StringRef Target = S.text(Left);
  if (is(Assign, "assignment") && !S.text(Right).contains(Target))
    return; // a plain store, not an update from its own value
  ++Quiet;  // only reading what the two sides are
  PyValue Old = expr(Left), Delta = expr(Right);
  --Quiet;
  if (Old.tensor() || Delta.tensor())
    return; // an in-place tensor op: captured, and replayed
  if (!(Old.Kinds & VHostData) && !(Delta.Kinds & VHostData))
    return;
  Updates[Target.str()] = {&S, begin(Assign)};
  // capture-host-side-effect, unless the value reaches captured work
  // (then it is this check's, and checkFrozenArguments drops it).
  recordHostUpdate(Left,
                   rules::hostSideEffect("'" + Target.str() + "'",
                                         quote(Assign), {&S, begin(Assign)}));
  // `calls = calls + 1` bound the global as a local: it reads the state.
  if (auto It = Vars.find(Target.str()); It != Vars.end())
    It->second.Frozen = Target.str();
}

void Walker::noteContainerUpdate(TSNode Call, const EvaluatedCall &C) {
  if (!Active || Quiet || !containerUpdate(C.Method) || C.Receiver.tensor() ||
      C.ArgValues.empty() || !persistentState(field(C.Function, "object")))
    return;
  // Host values only: a tensor appended is a graph's output kept.
  for (const auto &[Node, V] : C.ArgValues)
    if (V.tensor() ||
        !((V.Kinds & (VHostData | VString)) || !V.ShapeRead.empty()))
      return;
  std::string Target = S.text(field(C.Function, "object")).str();
  recordHostUpdate(field(C.Function, "object"),
                   rules::hostSideEffect("'" + Target + "'", quote(Call),
                                         {&S, begin(Call)}));
}

void Walker::recordHostUpdate(TSNode Target, PyHazard H) {
  std::string Head = llvm::StringRef(dottedName(S, stripParens(Target)))
                         .split('.')
                         .first.str();
  if (Summary && Fn && Fn->Owner && Head == "self")
    recordIf(std::move(H), {{0, "persistent"}});
  else
    record(std::move(H));
}

void Walker::tagFrozen(PyValue &V, TSNode N) const {
  if (V.tensor() || Updates.empty())
    return;
  auto It = Updates.find(S.text(N).str());
  if (It != Updates.end())
    V.Frozen = It->first;
}

void Walker::noteCarrier(TSNode Local, const PyValue &V) {
  if (!V.Frozen.empty() && !V.tensor())
    Carriers[S.text(Local).str()] = {&S, begin(Local)};
  else
    Carriers.erase(S.text(Local).str());
}

/// How a diagnostic names the work a call captures, or "" when the call
/// enqueues none: torch ops, tensor methods, Triton launches
/// (`kernel[grid](...)`).
std::string Walker::capturedWork(TSNode Fn, const std::string &Full,
                                 const std::string &Method,
                                 const PyValue &Receiver) {
  Fn = stripParens(Fn);
  if (is(Fn, "subscript"))
    return "kernel launch " + quote(field(Fn, "value"));
  if (!Full.empty())
    return Ctx.Cat.returnsTensor(Full) ? quote(Fn) : "";
  if (Method.empty() || Ctx.Cat.methodReturnsNonTensor(Method))
    return "";
  if (Receiver.tensor())
    return quote(Fn);
  // An in-place method (add_, fill_, copy_) of an object of unknown kind
  // is a tensor's in practice.
  bool InPlace = llvm::StringRef(Method).ends_with("_") &&
                 !llvm::StringRef(Method).starts_with("_") &&
                 Method != "requires_grad_";
  if (!Receiver.known() && (Ctx.Cat.tensorOnlyMethod(Method) || InPlace))
    return quote(Fn);
  return "";
}

void Walker::checkFrozenArguments(
    TSNode Call, const std::string &Work,
    const std::vector<std::pair<TSNode, PyValue>> &Args) {
  for (const auto &[Node, V] : Args) {
    if (V.Frozen.empty() || V.tensor())
      continue;
    auto Update = Updates.find(V.Frozen);
    if (Update == Updates.end())
      continue;
    PyHazard H;
    H.Kind = PyHazard::FrozenArg;
    H.Check = "capture-frozen-host-value";
    H.Subject = "'" + V.Frozen + "'";
    H.Detail = Work;
    H.Site = {&S, begin(Node)};
    H.Extra.push_back({Update->second, H.Subject +
                                           " is updated here, on the host; "
                                           "replays do not run this update"});
    TSNode Arg = stripParens(Node);
    auto Carrier = is(Arg, "identifier") ? Carriers.find(S.text(Arg).str())
                                         : Carriers.end();
    if (Carrier != Carriers.end()) {
      H.Through = Carrier->first;
      H.Extra.push_back({Carrier->second, "'" + Carrier->first +
                                              "' takes its value from " +
                                              H.Subject + " here"});
    }
    // The update is reported here, as the value it freezes, not twice.
    auto AtUpdate = [&](const PyHazard &Old) {
      return Old.Kind == PyHazard::HostUpdate &&
             Old.Site.Src == Update->second.Src &&
             Old.Site.Offset == Update->second.Offset;
    };
    if (Active)
      llvm::erase_if(Active->Hazards, AtUpdate);
    llvm::erase_if(SummaryParamHazards, [&](const PyParamHazard &Old) {
      return AtUpdate(Old.Hazard);
    });
    record(std::move(H));
    return; // one finding per call
  }
  (void)Call;
}

} // namespace capture_lint::python::detail

namespace capture_lint::python::rules {

Described describeFrozenArgument(const PyHazard &H) {
  MessageParts M = frozenHostValueWords(H.Subject, H.Through, H.Detail);
  M.Fix = "keep the counter in a device tensor and update it in place "
          "inside the graph (step.add_(1)), or re-capture when it changes";
  return std::make_pair(Severity::Warning, M);
}

} // namespace capture_lint::python::rules
