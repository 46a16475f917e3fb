//===- PyConstructors.cpp - What a constructor's callers pass -------------===//
//
// Engines keep their callables in fields: `self._fn = fn` in `__init__`,
// then `self._fn(x)` in the capture. The field holds whatever the callers
// of the constructor pass for `fn` (`Runner(Block())`, `Runner(fn=model)`),
// so its value is the merge of those arguments at every call of the class
// the program's parsed files show, each read where it is written.
//
//===----------------------------------------------------------------------===//

#include "PyWalkerImpl.h"
#include "llvm/ADT/SmallVector.h"

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
  for (unsigned I = 0; !isNull(Params) && I < namedCount(Params); ++I) {
    TSNode P = named(Params, I);
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
  for (unsigned I = 0; !isNull(Args) && I < namedCount(Args); ++I) {
    TSNode A = named(Args, I);
    if (is(A, "keyword_argument")) {
      if (S.text(field(A, "name")) == Name)
        return field(A, "value");
    } else if (!is(A, "comment") && Position++ == Index) {
      return A;
    }
  }
  return TSNode{};
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
  for (const auto &Mod : Ctx.Prog.modules()) {
    const PySource &Src = *Mod->Src;
    if (!Src.text().contains(C->Name))
      continue;
    llvm::SmallVector<TSNode, 64> Work = {Src.root()};
    while (!Work.empty()) {
      TSNode N = Work.pop_back_val();
      for (unsigned I = 0; I < namedCount(N); ++I)
        Work.push_back(named(N, I));
      if (!is(N, "call"))
        continue;
      std::string Callee = dottedName(Src, field(N, "function"));
      if (Callee.empty() ||
          llvm::StringRef(Callee).rsplit('.').second.str() != C->Name &&
              Callee != C->Name)
        continue;
      if (Ctx.Prog.resolve(*Mod, Callee, nullptr).Class != C)
        continue;
      TSNode Arg = argumentFor(N, Index, Param, Src);
      if (isNull(Arg))
        continue;
      Walker Caller(Ctx, *Mod, nullptr, false);
      ++Caller.Quiet;
      V.merge(Caller.expr(Arg));
    }
  }
  return V;
}

} // namespace capture_lint::python::detail
