//===- PyDropped.cpp - Captured inputs the function lets go ---------------===//
//
// The walker's other part of capture-dangling-buffer: a tensor the capturing
// function allocated itself (`pos = torch.arange(n, device="cuda")`), read
// by a capture into a graph the function keeps beyond itself (`self.graph`,
// returned, stored in a dict), where nothing keeps the tensor: when the
// function returns, its memory goes back to the caching allocator. Precision
// first: the tensor must be made by a factory on every assignment, and any
// way it may outlive the function (returned, stored anywhere but a plain
// local, added to a container, passed to a method of the class, seen by a
// nested function) counts as kept.
//
//===----------------------------------------------------------------------===//

#include "PyWalkerImpl.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

namespace capture_lint::python::detail {

namespace {

/// Methods that put their argument into a container or an object.
bool addsToContainer(llvm::StringRef Method) {
  return containerUpdate(Method) ||
         llvm::StringSwitch<bool>(Method)
             .Cases("put", "push", "register_buffer", "__setitem__", true)
             .Default(false);
}

/// Node kinds that hold their children's values (a view, a collection).
bool holdsValue(TSNode P, TSNode Child) {
  if (is(P, "attribute"))
    return ts_node_eq(field(P, "object"), Child);
  if (is(P, "subscript"))
    return ts_node_eq(field(P, "value"), Child);
  if (is(P, "call"))
    return ts_node_eq(field(P, "function"), Child); // a method's result
  return llvm::StringSwitch<bool>(kind(P))
      .Cases("tuple", "list", "set", "dictionary", "pair", true)
      .Cases("expression_list", "parenthesized_expression", "pattern_list",
             true)
      .Cases("list_splat", "dictionary_splat", "conditional_expression",
             "keyword_argument", true)
      .Default(false);
}

/// Whether identifier \p N, a child of \p P, is bound by something other
/// than a plain assignment: a loop, `with ... as`, unpacking, a walrus, a
/// parameter.
bool boundOtherwise(TSNode P, TSNode N) {
  if (is(P, "for_statement") || is(P, "for_in_clause"))
    return ts_node_eq(field(P, "left"), N);
  if (is(P, "named_expression"))
    return ts_node_eq(field(P, "name"), N);
  return is(P, "as_pattern_target") || is(P, "pattern_list") ||
         is(P, "parameters") || is(P, "default_parameter") ||
         is(P, "typed_parameter") || is(P, "typed_default_parameter");
}

/// Whether calling \p Callee makes an object that holds its arguments: a
/// container (`dict(x=x)`, `list`, `tuple`, `set`), a class (a name in
/// CamelCase: `Inputs(ids, pos)`, `SimpleNamespace(...)`), a partial.
bool holdsArguments(const PySource &S, TSNode Callee) {
  llvm::StringRef Name = S.text(Callee).rsplit('.').second;
  if (Name.empty())
    Name = S.text(Callee);
  if (llvm::StringSwitch<bool>(Name)
          .Cases("dict", "list", "tuple", "set", "frozenset", "partial", true)
          .Default(false))
    return true;
  return !Name.empty() && llvm::isUpper(Name.front()) &&
         llvm::any_of(Name, [](char C) { return llvm::isLower(C); });
}

} // namespace

/// The statement that stores the value \p O names where it outlives the
/// function: returned or yielded, assigned (to anything, or with
/// \p LocalsKeep false only to something other than a plain name), added
/// to a container, passed to setattr or to a method of \p Owner. Null when
/// none.
static TSNode storedAt(const PySource &S, TSNode O, bool LocalsKeep,
                       const PyClass *Owner) {
  TSNode Cur = O;
  for (TSNode P = ts_node_parent(Cur); !isNull(P);
       Cur = P, P = ts_node_parent(P)) {
    if (holdsValue(P, Cur))
      continue;
    if (is(P, "return_statement") || is(P, "yield"))
      return P;
    if (is(P, "assignment") || is(P, "augmented_assignment")) {
      bool Right = ts_node_eq(field(P, "right"), Cur);
      bool ToName = is(field(P, "left"), "identifier");
      return Right && (LocalsKeep || !ToName) ? P : TSNode{};
    }
    if (!is(P, "argument_list"))
      return TSNode{};
    TSNode Callee = field(ts_node_parent(P), "function");
    if (holdsArguments(S, Callee)) {
      P = ts_node_parent(P); // the made object holds it: where does it go?
      continue;
    }
    if (is(Callee, "identifier"))
      return S.text(Callee) == "setattr" ? P : TSNode{};
    if (!is(Callee, "attribute"))
      return TSNode{};
    llvm::StringRef Method = S.text(field(Callee, "attribute"));
    bool OwnMethod = Owner && S.text(field(Callee, "object")) == "self" &&
                     Owner->Methods.count(Method.str());
    return addsToContainer(Method) || OwnMethod ? P : TSNode{};
  }
  return TSNode{};
}

bool Walker::escapes(const std::string &Name) const {
  bool Escaped = false;
  visitNamed(Fn->Node, [&](TSNode N) {
    if (Escaped)
      return VisitNext::Stop;
    bool Nested = !ts_node_eq(N, Fn->Node) &&
                  (is(N, "function_definition") || is(N, "lambda") ||
                   is(N, "class_definition"));
    if (Nested || is(N, "global_statement") || is(N, "nonlocal_statement")) {
      // A closure (or a global) that names it keeps it.
      visitNamed(N, [&](TSNode I) {
        Escaped |= is(I, "identifier") && S.text(I) == Name;
        return Escaped ? VisitNext::Stop : VisitNext::Into;
      });
      return VisitNext::Skip;
    }
    if (is(N, "identifier") && S.text(N) == Name && nameReference(N))
      Escaped = !isNull(storedAt(S, N, /*LocalsKeep=*/true, Fn->Owner));
    return VisitNext::Into;
  });
  return Escaped;
}

std::optional<PySite> Walker::freshAllocation(const std::string &Name) const {
  auto Before = VarsAtBegin.find(Name);
  if (Before != VarsAtBegin.end() && Before->second.Param >= 0)
    return std::nullopt;
  std::optional<PySite> First;
  bool Other = false;
  visitNamed(Fn->Node, [&](TSNode N) {
    if (Other)
      return VisitNext::Stop;
    if (!ts_node_eq(N, Fn->Node) &&
        (is(N, "function_definition") || is(N, "class_definition")))
      return VisitNext::Skip;
    if (!is(N, "identifier") || S.text(N) != Name || !nameReference(N))
      return VisitNext::Into;
    TSNode P = ts_node_parent(N);
    if (is(P, "assignment") && ts_node_eq(field(P, "left"), N)) {
      TSNode Right = field(P, "right");
      TSNode Fun = is(Right, "call") ? field(Right, "function") : TSNode{};
      std::string Full = isNull(Fun) ? "" : fullName(Fun);
      bool Fresh =
          Ctx.Cat.defaultDeviceFactory(Full) || Full == "torch.tensor" ||
          (llvm::StringRef(Full).starts_with("torch.") &&
           llvm::StringRef(Full).ends_with("_like")) ||
          (is(Fun, "attribute") && S.text(field(Fun, "attribute")) == "clone");
      Other |= !Fresh;
      if (Fresh && !First)
        First = PySite{&S, begin(N)};
      return VisitNext::Skip;
    }
    Other |= boundOtherwise(P, N);
    return VisitNext::Into;
  });
  return Other ? std::nullopt : First;
}

std::optional<PySite> Walker::graphKept(const std::string &Graph,
                                        PySite Begin) const {
  llvm::StringRef Base = llvm::StringRef(Graph).split('[').first;
  Base = Base.split('.').first;
  auto Before = VarsAtBegin.find(Base.str());
  // An attribute, or an element of one: the object keeps it. A parameter:
  // the caller does.
  if (Base == "self" || Base == "cls" ||
      (Before != VarsAtBegin.end() && Before->second.Param >= 0))
    return Begin;
  if (Base != Graph)
    return std::nullopt;
  std::optional<PySite> Kept;
  visitNamed(Fn->Node, [&](TSNode N) {
    if (Kept)
      return VisitNext::Stop;
    if (is(N, "identifier") && S.text(N) == Graph && nameReference(N))
      if (TSNode At = storedAt(S, N, /*LocalsKeep=*/false, Fn->Owner);
          !isNull(At))
        Kept = PySite{&S, begin(At)};
    return VisitNext::Into;
  });
  return Kept;
}

void Walker::checkDroppedInputs() {
  if (Summary || !Fn || is(Fn->Node, "lambda"))
    return;
  for (const CapturedInputs &In : Captured) {
    if (In.Graph.empty())
      continue;
    PySite Begin = Regions[In.Region].Begin;
    std::optional<PySite> Kept = graphKept(In.Graph, Begin);
    if (!Kept)
      continue;
    if (Kept->Src == Begin.Src && Kept->Offset == Begin.Offset)
      Kept.reset(); // an attribute or a parameter: the begin names it
    for (const auto &[Name, ReadAt] : In.Names) {
      if (Name.find('.') != std::string::npos)
        continue;
      std::optional<PySite> Made = freshAllocation(Name);
      if (!Made || escapes(Name))
        continue;
      Regions[In.Region].Hazards.push_back(rules::droppedInput(
          Name, In.Graph, Fn->Display, ReadAt, *Made, Kept));
    }
  }
}

} // namespace capture_lint::python::detail
