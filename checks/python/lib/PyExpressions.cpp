//===- PyExpressions.cpp - The walker's expressions and calls -------------===//
//
// What each expression may be (PyConditions.h), the hazards of calls,
// conditions, f-strings and subscripts, and calls followed into the program.
//
//===----------------------------------------------------------------------===//

#include "PyWalkerImpl.h"
#include "capture_lint/python/PyAnalysis.h"

namespace capture_lint::python::detail {

/// A value annotated with a type that is no tensor (a string, a Python
/// number, a process group): a tensor method's name called on it
/// (`name.split()`, `pg.size()`) is that type's own method. (Not every
/// value with a host kind: `x * 2` merges the number's kind into an
/// unknown `x`.)
static bool knownNotTensor(const PyValue &V) {
  return !V.tensor() && (V.Kinds & VTypedNotTensor);
}

static bool isTensorClass(llvm::StringRef Class) {
  return Class == "torch.Tensor" || Class == "Tensor";
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

void Walker::bind(TSNode Target, const PyValue &V) {
  Target = stripParens(Target);
  if (is(Target, "identifier")) {
    Vars[S.text(Target).str()] = V;
    noteCarrier(Target, V);
    return;
  }
  if (is(Target, "pattern_list") || is(Target, "tuple_pattern") ||
      is(Target, "list_pattern") || is(Target, "tuple") || is(Target, "list")) {
    PyValue Elem;
    Elem.Kinds = V.tensor() ? VTensor : 0;
    Elem.ShapeRead = V.ShapeRead;
    Elem.Classes = V.Classes;
    Elem.Fresh = V.Fresh;
    for (TSNode Child : namedChildren(Target))
      bind(Child, Elem);
  }
}

PyValue Walker::condition(TSNode N, llvm::StringRef Keyword) {
  if (isNull(N))
    return PyValue();
  PyValue V = expr(N);
  if (V.Guard)
    return V;
  if (V.deviceTensor() && !(V.Kinds & VNotTensor)) {
    if (const ApiEntry *E = firstEntry("builtins.bool"))
      recordApi(E, N,
                "'" + (Keyword.ends_with(" if") ? "if" : Keyword.str()) +
                    "' condition " + quote(N));
    return V;
  }
  if (!V.ShapeRead.empty() && Keyword != "assert" &&
      Keyword != "assert-like if") {
    record(rules::shapeBranch("'" + Keyword.str() + "' condition " + quote(N),
                              V.ShapeRead, {&S, begin(N)}));
  }
  return V;
}

/// A value that is none of the things the analysis tracks, read through
/// \p From (an attribute, a global, a call's result), is opaque: what it
/// holds is decided outside what is analysed.
void Walker::markOpaque(PyValue &V, TSNode From) const {
  if (V.tensor() || V.Guard || !V.ShapeRead.empty() || !V.Functions.empty() ||
      !V.Classes.empty() || (V.Kinds & (VStream | VEvent)))
    return;
  std::string T = quote(From);
  V.Opaque = T.substr(1, T.size() - 2);
}

PyValue Walker::literal(TSNode N) {
  PyValue V;
  llvm::StringRef K = kind(N);
  if (K == "integer" || K == "float" || K == "true" || K == "false") {
    V.Kinds = VHostData | VNotTensor;
  } else if (K == "none") {
    V.Kinds = VNotTensor;
  } else if (K == "string" || K == "concatenated_string") {
    V.Kinds = VString | VNotTensor;
    llvm::StringRef T = S.text(N).ltrim("rbuRBUfF").trim("\"'");
    if (T.starts_with("cuda"))
      V.Kinds |= VCudaDevice;
    else if (T == "cpu")
      V.Kinds |= VCpuDevice;
    // f-strings: formatting a tensor reads it back.
    for (TSNode C : namedChildren(N)) {
      if (!is(C, "interpolation"))
        continue;
      TSNode E = field(C, "expression");
      PyValue IV = expr(E);
      if (IV.tensor() && !(IV.Kinds & VNotTensor))
        if (const ApiEntry *Entry = firstEntry("builtins.format"))
          recordApi(Entry, E, "f-string field " + quote(E));
    }
  }
  return V;
}

/// `"loss %.3f" % t`, `"%s, %s" % (a, t)`: formatting a tensor reads it
/// back, as an f-string field does.
PyValue Walker::percentFormat(TSNode N) {
  PyValue V = literal(field(N, "left"));
  TSNode Right = stripParens(field(N, "right"));
  std::vector<TSNode> Items = {Right};
  if (is(Right, "tuple")) {
    Items.clear();
    for (TSNode Child : namedChildren(Right))
      Items.push_back(Child);
  }
  for (TSNode Item : Items) {
    PyValue IV = expr(Item);
    if (IV.tensor() && !(IV.Kinds & VNotTensor))
      if (const ApiEntry *Entry = firstEntry("builtins.format"))
        recordApi(Entry, Item, "'%' formatting of " + quote(Item));
  }
  return V;
}

PyValue Walker::selfAttribute(PyClass *C, const std::string &Name) {
  auto Key = std::make_pair(static_cast<const PyClass *>(C), Name);
  auto It = Ctx.AttrCache.find(Key);
  if (It != Ctx.AttrCache.end())
    return It->second;
  Ctx.AttrCache[Key] = PyValue(); // cycle guard
  PyValue V;
  for (PyClass *K = C; K;) {
    auto Inits = K->AttrInits.find(Name);
    if (Inits != K->AttrInits.end()) {
      Walker Inner(Ctx, *K->Module, nullptr, false);
      ++Inner.Quiet;
      for (TSNode Init : Inits->second) {
        PyValue Passed = constructorArgument(K, Init);
        V.merge(Passed.known() ? Passed : Inner.expr(Init));
      }
      break;
    }
    auto Bases = Ctx.Prog.bases(K);
    K = Bases.empty() ? nullptr : Bases.front();
  }
  V.Fresh = false; // held by the object: it outlives the call that made it
  Ctx.AttrCache[Key] = V;
  return V;
}

PyValue Walker::attribute(TSNode N, const PyValue *Object) {
  TSNode Obj = field(N, "object");
  std::string Attr = S.text(field(N, "attribute")).str();
  std::string Full = fullName(N);
  PyValue R;
  if (Object)
    R = *Object;
  else if (Full.empty() || is(stripParens(Obj), "call"))
    R = expr(Obj);
  PyValue V;
  if (!Full.empty() && !llvm::StringRef(Full).starts_with("builtins.")) {
    // A module member (torch.float16, torch.cuda): nothing known.
    PySymbol Sym = Ctx.Prog.resolve(M, dottedName(S, N), Fn);
    if (Sym.Function)
      V.Functions.push_back(Sym.Function);
    else if (!Sym.Class && !Sym.Module)
      markOpaque(V, N); // a setting of another module (envs.DEBUG)
    return V;
  }
  if (S.text(Obj) == "self" && Fn && Fn->Owner) {
    if (PyFunction *Method = Ctx.Prog.method(Fn->Owner, Attr)) {
      V.Functions.push_back(Method);
      return V;
    }
    V = selfAttribute(Fn->Owner, Attr);
    markOpaque(V, N);
    return V;
  }
  for (PyClass *C : R.Classes)
    if (PyFunction *Method = Ctx.Prog.method(C, Attr))
      V.Functions.push_back(Method);
    else
      V.merge(selfAttribute(C, Attr));
  if (!V.Functions.empty() || !V.Classes.empty())
    return V;
  if (R.Kinds & (VNotTensor | VStream | VEvent) && !R.tensor()) {
    markOpaque(V, N);
    return V;
  }
  for (auto &[Class, E] : Ctx.Cat.method(Attr))
    if (E->Class == Hazard::ShapeQuery && (R.tensor() || !R.known())) {
      V.ShapeRead = S.text(N).str();
      V.Kinds = VNotTensor;
      return V;
    }
  if (R.tensor() && (Attr == "T" || Attr == "mT" || Attr == "data" ||
                     Attr == "real" || Attr == "imag" || Attr == "grad"))
    V.Kinds = VTensor;
  else if (!R.tensor())
    markOpaque(V, N); // a field of an object (attn_metadata.is_decoding)
  return V;
}

/// `TABLE["a"]`, `STEPS[1]` of a module-level dict or list literal: the
/// element that key or index names, or a null node.
static TSNode literalElement(const PySource &S, const PyModule &M, TSNode Sub) {
  TSNode Value = field(Sub, "value"), Key = field(Sub, "subscript");
  if (!is(Value, "identifier") || isNull(Key))
    return TSNode{};
  auto Init = M.Globals.find(S.text(Value).str());
  if (Init == M.Globals.end())
    return TSNode{};
  TSNode Lit = Init->second;
  if (is(Lit, "dictionary") && is(Key, "string")) {
    for (TSNode Pair : namedChildren(Lit)) {
      if (is(Pair, "pair") && S.text(field(Pair, "key")) == S.text(Key))
        return field(Pair, "value");
    }
  } else if (is(Lit, "list") && is(Key, "integer")) {
    unsigned Index = 0;
    if (!S.text(Key).getAsInteger(10, Index) && Index < namedCount(Lit))
      return named(Lit, Index);
  }
  return TSNode{};
}

PyValue Walker::subscript(TSNode N) {
  if (!Vars.count(S.text(field(N, "value")).str()))
    if (TSNode E = literalElement(S, M, N); !isNull(E)) {
      PyValue V = moduleLevel(S.text(N).str(), E);
      if (!V.Functions.empty() || !V.Classes.empty())
        return V;
    }
  PyValue V = expr(field(N, "value"));
  PyValue Index;
  for (TSNode C : namedChildren(N)) {
    if (!ts_node_eq(C, field(N, "value")))
      Index.merge(expr(C));
  }
  PyValue Out;
  // A boolean mask sizes the result from data (of a tensor that may be on
  // the device); with a parameter for the tensor or the mask, when the
  // callers pass those.
  std::vector<PyParamNeed> Needs;
  bool Tensor = V.deviceTensor() || (Summary && unknownParameter(V));
  if (!V.deviceTensor() && Tensor)
    Needs.push_back({static_cast<unsigned>(V.Param), "tensor"});
  bool Mask = (Index.Kinds & VBoolMask) ||
              (Summary && namedCount(N) == 2 && unknownParameter(Index));
  if (!(Index.Kinds & VBoolMask) && Mask)
    Needs.push_back({static_cast<unsigned>(Index.Param), "bool-mask"});
  if (Tensor && Mask)
    if (const ApiEntry *E = firstEntry("torch.nonzero"))
      recordIf(rules::catalogCall(E, {&S, begin(N)},
                                  "boolean-mask indexing " + quote(N)),
               std::move(Needs));
  if (V.tensor()) {
    Out.Kinds = V.hostTensor() ? VCpuTensor : VTensor;
    return Out;
  }
  if (!V.ShapeRead.empty()) {
    Out.ShapeRead = V.ShapeRead;
    Out.Kinds = VNotTensor;
  }
  if (V.Container || !V.Classes.empty()) {
    Out.Classes = V.Classes;
    Out.Fresh = V.Fresh; // an element of a list this function made
  }
  if (V.Container) // an element of a list or dict of callables
    Out.Functions = V.Functions;
  return Out;
}

PyValue Walker::expr(TSNode N) {
  if (isNull(N))
    return PyValue();
  llvm::StringRef K = kind(N);
  if (K == "call")
    return call(N);
  if (K == "attribute") {
    PyValue V = attribute(N);
    tagFrozen(V, N);
    return V;
  }
  if (K == "subscript")
    return subscript(N);
  if (K == "identifier")
    return identifier(N);
  if (K == "integer" || K == "float" || K == "true" || K == "false" ||
      K == "none" || K == "string" || K == "concatenated_string")
    return literal(N);
  if (K == "lambda")
    return lambda(N);
  if (K == "assignment" || K == "augmented_assignment")
    return assignment(N);
  if (K == "conditional_expression")
    return conditionalExpression(N);
  if (K == "comparison_operator")
    return comparison(N);
  if (K == "not_operator")
    return notOperator(N);
  if (K == "boolean_operator")
    return booleanOperator(N);
  if (K == "function_definition" || K == "class_definition")
    return PyValue();
  if (K == "binary_operator" && is(field(N, "left"), "string") &&
      S.text(field(N, "operator")) == "%")
    return percentFormat(N);
  return parts(N);
}

PyValue Walker::identifier(TSNode N) {
  auto It = Vars.find(S.text(N).str());
  if (It != Vars.end())
    return It->second;
  PyValue V;
  std::string Name = S.text(N).str();
  if (M.Functions.count(Name)) {
    V.Functions.push_back(M.Functions[Name]);
  } else if (!M.Classes.count(Name) && !M.Imports.count(Name)) {
    V = moduleGlobal(Name); // the callables a dispatch table holds
    markOpaque(V, N);       // a module global (DEBUG)
  }
  tagFrozen(V, N);
  return V;
}

/// What a module global assigned at the top level holds, as far as it is
/// callables and instances of the program (`HANDLERS = {"a": f}`,
/// `MODEL = Net()`): its other parts (numbers, flags) may change at run
/// time, so they stay unknown.
PyValue Walker::moduleGlobal(const std::string &Name) {
  auto Init = M.Globals.find(Name);
  return Init == M.Globals.end() ? PyValue() : moduleLevel(Name, Init->second);
}

/// The callables and instances the module-level expression \p E holds,
/// evaluated once per module and \p Key (a global's name, `TABLE["a"]`);
/// an expression that reads itself (`X = [X[0]]`) holds nothing.
PyValue Walker::moduleLevel(const std::string &Key, TSNode E) {
  auto CacheKey = std::make_pair(static_cast<const PyModule *>(&M), Key);
  if (auto It = Ctx.GlobalCache.find(CacheKey); It != Ctx.GlobalCache.end())
    return It->second;
  Ctx.GlobalCache[CacheKey] = PyValue(); // cycle guard
  Walker Inner(Ctx, M, nullptr, false);
  ++Inner.Quiet;
  PyValue All = Inner.expr(E);
  PyValue V;
  V.Functions = All.Functions;
  V.Classes = All.Classes;
  V.Container = All.Container && (!V.Functions.empty() || !V.Classes.empty());
  V.NativeLibrary = All.NativeLibrary; // `_lib = ctypes.CDLL(path)`
  Ctx.GlobalCache[CacheKey] = V;
  return V;
}

PyValue Walker::lambda(TSNode N) {
  PyFunction *L =
      Ctx.Prog.localFunction(&M, Fn ? Fn->Owner : nullptr, N,
                             "lambda in " + (Fn ? Fn->Display : M.Name), Fn);
  noteClosure(L);
  PyValue V;
  V.Functions.push_back(L);
  return V;
}

PyValue Walker::assignment(TSNode N) {
  PyValue RV = expr(field(N, "right"));
  if (is(N, "assignment")) {
    noteRebinding(N);
    bind(field(N, "left"), RV);
  } else {
    expr(field(N, "left"));
  }
  noteUpdate(N);
  return RV;
}

PyValue Walker::conditionalExpression(TSNode N) {
  PyValue V;
  if (namedCount(N) != 3)
    return V;
  TSNode Cond = named(N, 1);
  int G = guardPolarity(Cond);
  PyValue CV;
  if (G == 0)
    CV = condition(Cond, "conditional expression");
  for (bool Holds : {true, false}) {
    if (Holds ? G < 0 : G > 0)
      continue;
    unsigned Pushed = pushPath(Cond, CV, Holds);
    V.merge(expr(named(N, Holds ? 0 : 2)));
    popPath(Pushed);
  }
  return V;
}

PyValue Walker::comparison(TSNode N) {
  bool Identity = false;
  for (unsigned I = 0; I < ts_node_child_count(N); ++I) {
    TSNode C = ts_node_child(N, I);
    if (!ts_node_is_named(C)) {
      llvm::StringRef Op = kind(C);
      Identity |= Op == "is" || Op == "in" || Op == "not" || Op == "is not" ||
                  Op == "not in";
    }
  }
  PyValue All, V;
  for (TSNode Child : namedChildren(N))
    All.merge(expr(Child));
  if (All.tensor() && !Identity) {
    V.Kinds = (All.hostTensor() ? VCpuTensor : VTensor) | VBoolMask;
  } else {
    V.Kinds = VNotTensor;
    V.ShapeRead = All.ShapeRead;
    V.Opaque = All.Opaque;
  }
  return V;
}

PyValue Walker::notOperator(TSNode N) {
  PyValue A = expr(field(N, "argument")), V;
  V.Kinds = A.tensor() ? VTensor : VNotTensor;
  V.ShapeRead = A.ShapeRead;
  V.Opaque = A.Opaque;
  return V;
}

PyValue Walker::booleanOperator(TSNode N) {
  TSNode Left = field(N, "left");
  bool And = S.text(field(N, "operator")) == "and";
  PyValue V = expr(Left);
  // The right side runs only when the left is true (`and`) or false (`or`):
  // never under capture after `not capturing() and` or `capturing() or`;
  // else on the path where the left says so, a path condition when the
  // left is a value the analysis cannot see.
  int G = guardPolarity(Left);
  if (And ? G >= 0 : G <= 0) {
    unsigned Pushed = G == 0 ? pushPath(Left, V, And) : 0;
    V.merge(expr(field(N, "right")));
    popPath(Pushed);
  }
  if (V.tensor()) {
    V.Kinds &= ~VNotTensor;
    V.ShapeRead.clear();
    V.Frozen.clear();
  } else {
    V.Kinds |= VNotTensor;
  }
  return V;
}

PyValue Walker::parts(TSNode N) {
  // Containers, operators, parentheses and the rest: their parts.
  llvm::StringRef K = kind(N);
  bool Literal = K == "list" || K == "tuple" || K == "list_comprehension" ||
                 K == "set" || K == "generator_expression" ||
                 K == "dictionary" || K == "dictionary_comprehension";
  PyValue V;
  for (TSNode Child : namedChildren(N))
    V.merge(expr(Child));
  if (Literal) {
    bool Tensors = V.tensor();
    V.Kinds = VHostData | (Tensors ? 0 : VNotTensor);
    V.Container = true;
    V.ShapeRead.clear();
  } else if (V.tensor()) {
    V.Kinds &= ~VNotTensor;
    V.ShapeRead.clear();
    V.Frozen.clear();
  } else if (K == "binary_operator" || K == "unary_operator" ||
             K == "boolean_operator") {
    V.Kinds |= VNotTensor;
  }
  return V;
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

std::vector<PyFunction *> Walker::callees(TSNode F, const PyValue *Receiver,
                                          const std::string &Method,
                                          const PyValue &FnValue) {
  std::vector<PyFunction *> Out;
  F = stripParens(F);
  // super().m(...)
  if (is(F, "attribute") && is(field(F, "object"), "call") &&
      S.text(field(field(F, "object"), "function")) == "super" && Fn &&
      Fn->Owner) {
    for (PyClass *B : Ctx.Prog.bases(Fn->Owner))
      if (PyFunction *Base = Ctx.Prog.method(B, Method)) {
        Out.push_back(Base);
        break;
      }
    return Out;
  }
  for (PyFunction *Callable : callsRun(Ctx.Prog, FnValue))
    Out.push_back(Callable);
  if (!Out.empty())
    return Out;
  std::string D = dottedName(S, F);
  if (!D.empty() && !localHead(D)) {
    PySymbol Sym = Ctx.Prog.resolve(M, D, Fn);
    if (Sym.Function)
      Out.push_back(Sym.Function);
  }
  (void)Receiver;
  return Out;
}

void Walker::follow(PyFunction *Callee, TSNode Site,
                    const EvaluatedCall *Call) {
  if (!Active || Quiet || Callee == Fn)
    return;
  const FunctionNote *Note = Ctx.Cat.note(Callee->QualName);
  if (!Note)
    Note = Ctx.Cat.note(Callee->Display);
  if (Note && Note->Kind == FunctionNote::Safe)
    return;
  if (Ctx.Depth >= Ctx.MaxCallDepth)
    return;
  const std::vector<PyHazard> &Hs = summarize(Ctx, Callee);
  // Streams the callee joins back are joined here (`finish()` joining
  // what `start()` forked).
  if (auto J = Ctx.Joins.find(Callee); J != Ctx.Joins.end())
    Active->Joined.insert(J->second.begin(), J->second.end());
  for (const PyHazard &H : Hs) {
    PyHazard Copy = H;
    Copy.Chain.insert(Copy.Chain.begin(),
                      PyStep{{&S, begin(Site)}, Callee->Display});
    record(std::move(Copy));
  }
  if (Call) {
    followParamCalls(Callee, Site, *Call);
    followParamHazards(Callee, Site, *Call);
  }
}

void Walker::graphedCallables(TSNode Call, const PyValue &Arg,
                              const std::string &Name, CaptureMode Mode,
                              const std::string &How) {
  if (Summary || Active)
    return;
  std::vector<PyFunction *> Targets = callsRun(Ctx.Prog, Arg);
  if (Targets.empty())
    return;
  PyRegion R;
  R.Begin = {&S, begin(Call)};
  R.Mode = Mode;
  R.Headline = "'" + Name + "' captures the callables given here" +
               (How.empty() ? "" : " (" + How + ")") + ", mode " +
               modeWords(Mode);
  // Each callable's body is the region: its hazards are reported where
  // they are, with the call that captures it as the region's note.
  for (PyFunction *T : Targets) {
    Walker Body(Ctx, *T->Module, T, false);
    Body.activateWholeBody(R);
    Body.walkFunction();
    for (PyRegion &Found : Body.Regions)
      Regions.push_back(std::move(Found));
  }
}

PyValue Walker::call(TSNode N) {
  PyValue Out = callResult(N);
  // A capture context made here and entered later (`ctx = torch.cuda.graph(
  // g) if capture else nullcontext()`, then `with ctx:`).
  std::string Full = fullName(field(N, "function"));
  if (const RegionApi *R = Full.empty() ? nullptr : Ctx.Cat.region(Full);
      R && R->Kind == RegionApi::Begin) {
    Out.ContextCall = N;
    Out.ContextSrc = &S;
  }
  return Out;
}

void Walker::evaluateCall(TSNode N, EvaluatedCall &C) {
  C.Function = field(N, "function");
  C.Arguments = field(N, "arguments");
  TSNode F = C.Function;
  C.Full = fullName(F);
  if (is(F, "attribute") && C.Full.empty()) {
    C.Method = S.text(field(F, "attribute")).str();
    TSNode Obj = field(F, "object");
    if (!(is(Obj, "call") && S.text(field(Obj, "function")) == "super")) {
      C.Receiver = expr(Obj);
      C.Facts.Receiver = &C.Receiver;
    }
    C.FnValue = attribute(F, C.Facts.Receiver);
  } else if (C.Full.empty() ||
             llvm::StringRef(C.Full).starts_with("builtins.")) {
    C.FnValue = expr(F);
  }
  C.Facts.Method = C.Method;
  TSNode Args = C.Arguments;
  for (TSNode A : namedChildren(Args)) {
    if (is(A, "comment"))
      continue;
    TSNode Value = is(A, "keyword_argument") ? field(A, "value") : A;
    C.ArgValues.push_back({Value, expr(Value)});
    if (is(A, "keyword_argument"))
      C.Facts.Keywords[S.text(field(A, "name")).str()] =
          C.ArgValues.back().second;
    else
      C.Facts.Args.push_back(C.ArgValues.back().second);
  }
  if (is(Args, "generator_expression"))
    C.Facts.Args.push_back(expr(Args));
}

std::optional<PyValue> Walker::catalogResult(TSNode N, EvaluatedCall &C) {
  PyValue Out;
  // Guards, wrappers and declared functions of the catalog.
  if (!C.Full.empty()) {
    if (Ctx.Cat.isGuard(C.Full)) {
      Out.Guard = true;
      Out.Kinds = VNotTensor;
      return Out;
    }
    if (const FunctionNote *Note = Ctx.Cat.note(C.Full);
        Note && Note->Kind == FunctionNote::Wrapper) {
      if (Note->Argument < C.Facts.Args.size())
        graphedCallables(N, C.Facts.Args[Note->Argument],
                         llvm::StringRef(C.Full).rsplit('.').second.str());
      return Out;
    }
  }
  bool Recorded = false;
  if (std::optional<PyValue> Shape = catalogEntries(N, C, Recorded))
    return Shape;
  if (!Recorded && !Updates.empty()) {
    std::string Work = capturedWork(C.Function, C.Full, C.Method, C.Receiver);
    if (!Work.empty())
      checkFrozenArguments(N, Work, C.ArgValues);
  }
  if (C.Method == "wait_stream" && Active && !C.Facts.Args.empty() &&
      namedCount(C.Arguments))
    Active->Joined.insert(S.text(named(C.Arguments, 0)).str());
  return std::nullopt;
}

std::optional<PyValue> Walker::catalogEntries(TSNode N, const EvaluatedCall &C,
                                              bool &Recorded) {
  // Module functions by dotted name, methods by name.
  std::vector<const ApiEntry *> Entries;
  if (!C.Full.empty())
    Entries = Ctx.Cat.function(C.Full);
  else if (!C.Method.empty() && C.FnValue.Functions.empty())
    for (auto &[Class, E] : Ctx.Cat.method(C.Method))
      if (!knownNotTensor(C.Receiver) || !isTensorClass(Class))
        Entries.push_back(E);
  for (const ApiEntry *E : Entries) {
    std::vector<PyParamNeed> Needs;
    if (!conditionsHoldIf(*E, C.Facts, Summary ? &Needs : nullptr))
      continue;
    if (std::find(E->PythonWhen.begin(), E->PythonWhen.end(), "unjoined") !=
        E->PythonWhen.end())
      continue; // judged when the region ends
    if (!Needs.empty()) {
      // A hazard only for callers that pass such values.
      if (E->Class == Hazard::ShapeQuery || E->Class == Hazard::None)
        continue;
      recordIf(rules::catalogCall(E, {&S, begin(N)}, quote(N)),
               std::move(Needs));
      continue;
    }
    if (E->Class == Hazard::ShapeQuery) {
      PyValue Out;
      Out.ShapeRead = S.text(N).str();
      Out.Kinds = VNotTensor;
      return Out;
    }
    if (E->Class == Hazard::None)
      break;
    recordApi(E, N, quote(N));
    Recorded = true;
    break;
  }
  return std::nullopt;
}

PyValue Walker::programResult(TSNode N, EvaluatedCall &C) {
  PyValue Out;
  std::vector<PyFunction *> Targets =
      callees(C.Function, C.Facts.Receiver, C.Method, C.FnValue);
  wrappedCallables(N, Targets, C.Facts, is(C.Function, "attribute"));
  PySymbol Sym;
  std::string Dotted = dottedName(S, C.Function);
  bool Builtin = llvm::StringRef(C.Full).starts_with("builtins.");
  if (Targets.empty() && !Dotted.empty() && !localHead(Dotted) && !Builtin)
    Sym = Ctx.Prog.resolve(M, Dotted, Fn);
  if (Sym.Class) {
    Out.Classes.push_back(Sym.Class); // a constructor call
    Out.Fresh = true;
    return Out;
  }
  for (PyFunction *T : Targets) {
    const FunctionNote *Note = Ctx.Cat.note(T->QualName);
    if (!Note)
      Note = Ctx.Cat.note(T->Display);
    if (Note && Note->Kind == FunctionNote::CapturePredicate) {
      Out.Guard = true;
      return Out;
    }
    follow(T, N, &C);
  }
  if (!Targets.empty()) {
    markOpaque(Out, N); // what a function of the program returns
    return Out;
  }
  if (!noteParamCall(N, C))
    noteUnseen(N, C);
  noteNativeCall(N, C);
  Out = resultOf(C.Full, C.Method, C.Receiver, C.Facts);
  if (!Out.known() && Out.ShapeRead.empty() && !Builtin)
    markOpaque(Out, N); // what an unknown call returns
  Out.Library = !C.Full.empty() && !Builtin;
  return Out;
}

bool Walker::setsAttribute(const PyValue &Receiver, const std::string &Name) {
  for (PyClass *C : Receiver.Classes)
    for (PyClass *K = C; K;) {
      if (K->AttrInits.count(Name))
        return true;
      auto Bases = Ctx.Prog.bases(K);
      K = Bases.empty() ? nullptr : Bases.front();
    }
  return false;
}

void Walker::noteUnseen(TSNode N, const EvaluatedCall &C) {
  if (!Active || Quiet || !C.Full.empty() || C.FnValue.known() ||
      C.FnValue.Library)
    return;
  TSNode F = stripParens(C.Function);
  bool Unseen = false;
  if (is(F, "identifier")) {
    // A parameter or local holding a callable nobody here defined.
    auto It = Vars.find(S.text(F).str());
    Unseen = It != Vars.end() && !It->second.known() && !It->second.Guard;
  } else if (is(F, "attribute")) {
    // An attribute the class sets to something the analysis cannot see.
    llvm::StringRef Object = S.text(stripParens(field(F, "object")));
    Unseen = (Object == "self" || Object == "cls") &&
             setsAttribute(C.Receiver, C.Method);
  }
  if (Unseen)
    Ctx.noteUnseen(S.text(F).str(), {&S, begin(N)});
}

void Walker::noteNativeCall(TSNode N, const EvaluatedCall &C) {
  if (!Ctx.NativeKeys || Ctx.NativeKeys->empty())
    return;
  std::string Key;
  if (!C.Method.empty() && C.Receiver.NativeLibrary)
    Key = nativeLibraryKey(C.Method);
  else if (!C.Full.empty())
    Key = nativeCallKey(C.Full);
  if (!Ctx.NativeKeys->count(Key))
    return;
  PyHazard H;
  H.Kind = PyHazard::Native;
  H.Subject = S.text(stripParens(C.Function)).str();
  H.Detail = std::move(Key);
  H.Site = {&S, begin(N)};
  record(std::move(H));
}

PyValue Walker::callResult(TSNode N) {
  EvaluatedCall C;
  evaluateCall(N, C);
  checkUnevenCollective(N, C);
  noteContainerUpdate(N, C);
  if (C.Method == "replay")
    checkReplay(N, S.text(field(C.Function, "object")).str());
  if (std::optional<PyValue> Decided = catalogResult(N, C))
    return *Decided;
  return programResult(N, C);
}

/// What a call that is not followed returns: tensors from torch functions
/// and tensor methods, streams, devices, module containers, shapes through
/// builtins.
PyValue Walker::resultOf(const std::string &Full, const std::string &Method,
                         const PyValue &Receiver, const PyCallFacts &Facts) {
  // cffi's ffi.dlopen(path), whatever made ffi (a local of another
  // function when a constructor's `self.lib = ffi.dlopen(path)` is read).
  llvm::StringRef Unbound = Full;
  bool Dlopen =
      Method.empty()
          ? Unbound.consume_front("builtins.") &&
                Ctx.Cat.nativeLibraryLoaderMethod(Unbound.rsplit('.').second)
          : Ctx.Cat.nativeLibraryLoaderMethod(Method);
  if (Dlopen && Receiver.Classes.empty() && !Receiver.tensor()) {
    PyValue Out;
    Out.NativeLibrary = true;
    return Out;
  }
  if (!Full.empty())
    return functionResult(Full, Facts);
  if (!Method.empty() && !Receiver.Classes.empty()) {
    PyValue Out; // nn.Module methods that return the module itself
    if (Ctx.Cat.returnsSelf(Method))
      Out.Classes = Receiver.Classes;
    return Out;
  }
  if (!Method.empty())
    return methodResult(Method, Receiver);
  return PyValue();
}

/// A builtin's value: what its arguments read of shapes, opaque values and
/// updated host state (int(self.step), min(self.step, 8), len(x.shape)).
static PyValue builtinResult(llvm::StringRef Name, const PyCallFacts &Facts) {
  PyValue Out;
  Out.Kinds = VNotTensor;
  bool Carries = Name == "builtins.len" || Name == "builtins.range" ||
                 Name == "builtins.min" || Name == "builtins.max" ||
                 Name == "builtins.int" || Name == "builtins.sum" ||
                 Name == "builtins.abs" || Name == "builtins.divmod";
  for (const PyValue &A : Facts.Args) {
    if (A.tensor())
      continue;
    // isinstance(x, T), getattr(cfg, "flag"): as opaque as x or cfg.
    if (Out.Opaque.empty())
      Out.Opaque = A.Opaque;
    if (!Carries)
      continue;
    if (!A.ShapeRead.empty())
      Out.ShapeRead = A.ShapeRead;
    if (Out.Frozen.empty())
      Out.Frozen = A.Frozen;
  }
  return Out;
}

PyValue Walker::functionResult(llvm::StringRef Name, const PyCallFacts &Facts) {
  PyValue Out;
  if (Name == "functools.partial" && !Facts.Args.empty()) {
    Out.Functions = Facts.Args[0].Functions;
    Out.Classes = Facts.Args[0].Classes;
  } else if (Name.ends_with(".ModuleList") || Name.ends_with(".Sequential") ||
             Name.ends_with(".ModuleDict")) {
    for (const PyValue &A : Facts.Args)
      Out.Classes.insert(Out.Classes.end(), A.Classes.begin(), A.Classes.end());
    Out.Container = true;
  } else if (Name == "torch.device") {
    if (!Facts.Args.empty())
      Out.Kinds = Facts.Args[0].Kinds & (VCudaDevice | VCpuDevice);
  } else if (Name == "torch.cuda.Stream" ||
             Name == "torch.cuda.current_stream" ||
             Name == "torch.cuda.default_stream" ||
             Name == "torch.cuda.ExternalStream") {
    Out.Kinds = VStream;
  } else if (Name == "torch.cuda.Event") {
    Out.Kinds = VEvent;
  } else if (Ctx.Cat.nativeLibraryLoader(Name)) {
    Out.NativeLibrary = true;
  } else if (Name.starts_with("builtins.")) {
    Out = builtinResult(Name, Facts);
  } else if (Ctx.Cat.hostTensorFunction(Name)) {
    Out.Kinds = VCpuTensor;
  } else if (Ctx.Cat.returnsTensor(Name)) {
    bool Cpu = Ctx.Cat.defaultDeviceFactory(Name) && !Ctx.DefaultDeviceSet;
    auto Dev = Facts.Keywords.find("device");
    if (Dev != Facts.Keywords.end())
      Cpu = Dev->second.Kinds & VCpuDevice;
    else if (Name == "torch.tensor" || Name == "torch.as_tensor")
      Cpu = Facts.Args.empty() || !Facts.Args[0].tensor();
    Out.Kinds = Cpu ? VCpuTensor : VTensor;
  }
  return Out;
}

PyValue Walker::methodResult(const std::string &Method,
                             const PyValue &Receiver) {
  PyValue Out;
  bool ReceiverTensor = Receiver.tensor();
  if (Method == "cpu" && (ReceiverTensor || !Receiver.known()))
    Out.Kinds = VCpuTensor;
  else if (Method == "cuda" || (Method == "to" && ReceiverTensor))
    Out.Kinds = VTensor;
  else if (Ctx.Cat.hostTensorMethod(Method) && !ReceiverTensor &&
           Receiver.Classes.empty())
    Out.Kinds = VCpuTensor; // a library object's (a generator's get_state)
  else if (Ctx.Cat.methodReturnsNonTensor(Method))
    Out.Kinds = VNotTensor;
  else if (ReceiverTensor ||
           (!Receiver.known() && Ctx.Cat.tensorOnlyMethod(Method)))
    Out.Kinds = (Receiver.Kinds & VCpuTensor) && !(Receiver.Kinds & VTensor)
                    ? VCpuTensor
                    : VTensor;
  return Out;
}

} // namespace capture_lint::python::detail
