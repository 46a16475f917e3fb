//===- PyConstructors.cpp - What a constructor's callers pass -------------===//
//
// Engines keep their callables in fields: `self._fn = fn` in `__init__`,
// then `self._fn(x)` in the capture. The field holds whatever the callers
// of the constructor pass for `fn` (`Runner(Block())`, `Runner(fn=model)`),
// so its value is the merge of those arguments at every call of the class
// the program's parsed files show, each read where it is written.
//
//===----------------------------------------------------------------------===//

#include "PyCallSites.h"
#include "PyWalkerImpl.h"

#include "llvm/ADT/ArrayRef.h"

namespace capture_lint::python::detail {

/// The `def` around \p N, or a null node.
static TSNode enclosingDef(TSNode N) {
  for (TSNode P = ts_node_parent(N); !ts_node_is_null(P); P = ts_node_parent(P))
    if (is(P, "function_definition"))
      return P;
  return TSNode{};
}

/// The position (after self) and name of the parameter \p Name of \p Def,
/// or -1 when it has none by that name.
static int parameterIndex(const PySource &S, TSNode Def, llvm::StringRef Name) {
  TSNode Params = field(Def, "parameters");
  int Index = -1; // self comes first
  for (TSNode P : namedChildren(Params)) {
    TSNode Id = P;
    if (is(P, "typed_parameter"))
      Id = named(P, 0);
    else if (is(P, "default_parameter") || is(P, "typed_default_parameter"))
      Id = field(P, "name");
    else if (!is(P, "identifier"))
      return -1; // *args, **kwargs, keyword-only markers: positions unknown
    if (S.text(Id) == Name)
      return Index;
    ++Index;
  }
  return -1;
}

/// The argument \p Call passes for the parameter at \p Index named \p Name.
static TSNode argumentFor(TSNode Call, int Index, llvm::StringRef Name,
                          const PySource &S) {
  TSNode Args = field(Call, "arguments");
  int Position = 0;
  for (TSNode A : namedChildren(Args)) {
    if (is(A, "keyword_argument")) {
      if (S.text(field(A, "name")) == Name)
        return field(A, "value");
    } else if (!is(A, "comment") && Position++ == Index) {
      return A;
    }
  }
  return TSNode{};
}

/// The calls in \p Mod whose callee's last name is \p Name.
static std::vector<TSNode> callsNamed(PyContext &Ctx, const PyModule &Mod,
                                      llvm::StringRef Name) {
  std::unique_ptr<PyCallSites> &Sites = Ctx.CallSites[&Mod];
  if (!Sites)
    Sites = std::make_unique<PyCallSites>(*Mod.Src);
  return Sites->callsNamed(Name);
}

/// The calls of class \p C in the program's modules, found once per class.
static const std::vector<std::pair<PyModule *, TSNode>> &
constructorCalls(PyContext &Ctx, PyClass *C) {
  if (auto It = Ctx.ConstructorCalls.find(C); It != Ctx.ConstructorCalls.end())
    return It->second;
  std::vector<std::pair<PyModule *, TSNode>> Calls;
  // By index: resolving a callee may load a module, growing the list.
  for (size_t I = 0; I < Ctx.Prog.modules().size(); ++I) {
    PyModule *Mod = Ctx.Prog.modules()[I].get();
    for (TSNode N : callsNamed(Ctx, *Mod, C->Name)) {
      std::string Callee = dottedName(*Mod->Src, field(N, "function"));
      if (Ctx.Prog.resolve(*Mod, Callee, nullptr).Class == C)
        Calls.push_back({Mod, N});
    }
  }
  return Ctx.ConstructorCalls[C] = std::move(Calls);
}

PyValue Walker::constructorArgument(PyClass *C, TSNode Init) {
  PyValue V;
  if (!is(Init, "identifier"))
    return V;
  TSNode Def = enclosingDef(Init);
  const PySource &Own = *C->Module->Src;
  if (isNull(Def) || Own.text(field(Def, "name")) != "__init__")
    return V;
  llvm::StringRef Param = Own.text(Init);
  int Index = parameterIndex(Own, Def, Param);
  if (Index < 0)
    return V;
  for (const auto &[Mod, Call] : constructorCalls(Ctx, C)) {
    TSNode Arg = argumentFor(Call, Index, Param, *Mod->Src);
    if (isNull(Arg))
      continue;
    Walker Caller(Ctx, *Mod, nullptr, false);
    ++Caller.Quiet;
    V.merge(Caller.expr(Arg));
  }
  return V;
}

} // namespace capture_lint::python::detail
