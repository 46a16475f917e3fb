//===- PyWrappers.cpp - Functions that capture what they are given -------===//
//
// A test or benchmark seldom writes `with torch.cuda.graph(g):` around the
// model itself; it writes a helper that captures a callable and passes the
// model to it (`capture_graph(lambda: model(x))`, `timing(forward)`). A
// function of the program that calls one of its parameters under a capture
// it opens, or passes the parameter on (itself, or inside a lambda) to such
// a function, wraps that parameter: at each call, the callables given for
// it run under that capture, so they are analysed as a region beginning at
// the call. What the `.capture-lint.json` "wrappers" section declares by
// hand, inferred from the helper's body.
//
//===----------------------------------------------------------------------===//

#include "PyWalkerImpl.h"

#include "llvm/Support/Path.h"

namespace capture_lint::python::detail {

/// The parameters of \p F a caller passes, by name, with their positions
/// among a caller's arguments (self or cls of a method left out).
static std::map<std::string, unsigned> parameterPositions(const PyFunction &F) {
  std::map<std::string, unsigned> Out;
  const PySource &S = *F.Module->Src;
  auto Params = namedChildren(field(F.Node, "parameters"));
  unsigned Position = 0;
  for (unsigned I = 0; I < Params.size(); ++I) {
    TSNode P = Params[I];
    TSNode Id = is(P, "identifier")                ? P
                : is(P, "typed_parameter")         ? named(P, 0)
                : is(P, "default_parameter")       ? field(P, "name")
                : is(P, "typed_default_parameter") ? field(P, "name")
                                                   : TSNode{};
    if (isNull(Id) || !is(Id, "identifier"))
      continue; // *args, **kwargs, keyword-only markers
    std::string Name = S.text(Id).str();
    if (I == 0 && F.Owner && (Name == "self" || Name == "cls"))
      continue;
    Out[Name] = Position++;
  }
  return Out;
}

/// The calls under \p N, outside nested function and class definitions
/// (lambdas included: they run where they are called from).
static std::vector<TSNode> callsUnder(TSNode N) {
  std::vector<TSNode> Out;
  visitOwnCode(N, [&](TSNode X) {
    if (is(X, "call"))
      Out.push_back(X);
    return true;
  });
  return Out;
}

/// Whether \p Arg (an argument expression) is parameter \p Name itself, or
/// a lambda that calls it.
static bool passesOn(const PySource &S, TSNode Arg, const std::string &Name) {
  if (is(Arg, "identifier"))
    return S.text(Arg) == Name;
  if (!is(Arg, "lambda"))
    return false;
  for (TSNode C : callsUnder(field(Arg, "body"))) {
    TSNode Fn = field(C, "function");
    if (is(Fn, "identifier") && S.text(Fn) == Name)
      return true;
  }
  return false;
}

/// The argument of \p Call for a parameter at \p Position named \p Name.
static TSNode argumentFor(const PySource &S, TSNode Call, unsigned Position,
                          const std::string &Name) {
  TSNode Args = field(Call, "arguments");
  unsigned Pos = 0;
  for (TSNode A : namedChildren(Args)) {
    if (is(A, "comment") || is(A, "list_splat") || is(A, "dictionary_splat"))
      continue;
    if (is(A, "keyword_argument")) {
      if (S.text(field(A, "name")) == Name)
        return field(A, "value");
      continue;
    }
    if (Pos++ == Position)
      return A;
  }
  return TSNode{};
}

PyFunction *Walker::calledFunction(PyFunction &F, TSNode Call) {
  std::string D = dottedName(S, field(Call, "function"));
  if (llvm::StringRef(D).starts_with("self.") && F.Owner)
    return Ctx.Prog.method(F.Owner, llvm::StringRef(D).drop_front(5));
  return D.empty() ? nullptr : Ctx.Prog.resolve(M, D, Fn).Function;
}

bool Walker::callsWrapper(PyFunction &F) {
  for (TSNode C : F.Calls)
    if (PyFunction *Callee = calledFunction(F, C);
        Callee && Callee != &F &&
        (!wrappedParams(*Callee).empty() || opensForCaller(Ctx, *Callee)))
      return true;
  return false;
}

CaptureMode Walker::regionMode(TSNode Args, const RegionApi &R) const {
  return regionMode(Args, R, S);
}

CaptureMode Walker::regionMode(TSNode Args, const RegionApi &R,
                               const PySource &S) const {
  CaptureMode Mode = R.DefaultMode;
  unsigned Pos = 0;
  for (TSNode A : namedChildren(Args)) {
    TSNode ModeNode{};
    if (is(A, "keyword_argument")) {
      if (S.text(field(A, "name")) == "capture_error_mode")
        ModeNode = field(A, "value");
    } else if (R.ModeArg && Pos++ == *R.ModeArg) {
      ModeNode = A;
    }
    if (!isNull(ModeNode)) {
      auto Parsed = parseMode(S.text(ModeNode).trim("\"'"));
      Mode = Parsed ? *Parsed : CaptureMode::Unknown;
    }
  }
  return Mode;
}

std::optional<CaptureMode> Walker::regionOpenedBy(TSNode With) {
  TSNode Clause = named(With, 0);
  for (TSNode Child : namedChildren(Clause)) {
    TSNode V = field(Child, "value");
    if (is(V, "as_pattern"))
      V = named(V, 0);
    if (!is(V, "call"))
      continue;
    std::string Full = fullName(field(V, "function"));
    const RegionApi *R = Full.empty() ? nullptr : Ctx.Cat.region(Full);
    if (R && R->Kind == RegionApi::Begin)
      return regionMode(field(V, "arguments"), *R);
    if (auto Wrapped = capturingContext(V))
      return Wrapped->Mode;
  }
  return std::nullopt;
}

/// The statements of \p Block from an `X.capture_begin(...)` up to its
/// `X.capture_end()`, with the mode of each such span.
std::vector<std::pair<TSNode, CaptureMode>>
Walker::beginEndSpans(TSNode Block) {
  std::vector<std::pair<TSNode, CaptureMode>> Out;
  std::optional<CaptureMode> Open;
  for (TSNode St : namedChildren(Block)) {
    TSNode Call = is(St, "expression_statement") ? named(St, 0) : TSNode{};
    TSNode Fn =
        !isNull(Call) && is(Call, "call") ? field(Call, "function") : TSNode{};
    const RegionApi *R =
        !isNull(Fn) && is(Fn, "attribute")
            ? Ctx.Cat.regionMethod(S.text(field(Fn, "attribute")).str())
            : nullptr;
    if (R && R->Kind == RegionApi::Begin)
      Open = regionMode(field(Call, "arguments"), *R);
    else if (R && R->Kind == RegionApi::End)
      Open.reset();
    else if (Open)
      Out.push_back({St, *Open});
  }
  return Out;
}

/// The with statements of \p F's own code, and the blocks in which a
/// statement calls a region method (`g.capture_begin()`), in the order a
/// walk of the body meets them: the only places a capture can open. From
/// what the index recorded, without a walk.
std::vector<TSNode> Walker::captureStatements(const PyFunction &F) const {
  std::vector<TSNode> Out = F.Withs;
  for (TSNode C : F.Calls) {
    TSNode Fn = field(C, "function");
    if (!is(Fn, "attribute") ||
        !Ctx.Cat.regionMethod(S.text(field(Fn, "attribute")).str()))
      continue;
    TSNode P = ts_node_parent(C);
    if (is(P, "expression_statement") && is(ts_node_parent(P), "block"))
      Out.push_back(ts_node_parent(P));
  }
  // Pre-order (an enclosing statement first), each once.
  std::sort(Out.begin(), Out.end(), walkedBefore);
  Out.erase(std::unique(Out.begin(), Out.end(),
                        [](TSNode A, TSNode B) { return ts_node_eq(A, B); }),
            Out.end());
  return Out;
}

void Walker::collectWrapped(PyFunction &F,
                            const std::map<std::string, unsigned> &Params,
                            std::vector<PyWrappedParam> &Out) {
  auto Add = [&](const std::string &Name, CaptureMode Mode, TSNode At,
                 const std::string &Via) {
    for (const PyWrappedParam &W : Out)
      if (W.Name == Name)
        return;
    Out.push_back({Params.at(Name), Name, Mode, {&S, begin(At)}, Via});
  };
  // Calls of a parameter inside a capture this function opens.
  auto CallsUnderCapture = [&](TSNode Under, CaptureMode Mode) {
    for (TSNode C : callsUnder(Under)) {
      TSNode Fn = field(C, "function");
      if (is(Fn, "identifier") && Params.count(S.text(Fn).str()))
        Add(S.text(Fn).str(), Mode, C, "");
    }
  };
  for (TSNode N : captureStatements(F)) {
    if (is(N, "block"))
      for (auto &[St, Mode] : beginEndSpans(N))
        CallsUnderCapture(St, Mode);
    else if (std::optional<CaptureMode> Mode = regionOpenedBy(N))
      CallsUnderCapture(field(N, "body"), *Mode);
  }
  // A parameter passed on to a function that wraps the argument it fills.
  for (TSNode C : F.Calls) {
    PyFunction *Callee = calledFunction(F, C);
    if (!Callee || Callee == &F)
      continue;
    for (const PyWrappedParam &W : wrappedParams(*Callee)) {
      TSNode Arg = argumentFor(S, C, W.Position, W.Name);
      if (isNull(Arg))
        continue;
      for (const auto &[Name, Position] : Params)
        if (passesOn(S, Arg, Name))
          Add(Name, W.Mode, C, Callee->Display);
    }
  }
}

const std::vector<PyWrappedParam> &Walker::wrappedParams(PyFunction &F) {
  static const std::vector<PyWrappedParam> None;
  auto It = Ctx.Wrapped.find(&F);
  if (It != Ctx.Wrapped.end())
    return It->second;
  if (!F.Module || !F.Module->Src || !is(F.Node, "function_definition") ||
      !Ctx.WrappedInProgress.insert(&F).second)
    return None; // a lambda, or a cycle of helpers
  std::vector<PyWrappedParam> Out;
  std::map<std::string, unsigned> Params = parameterPositions(F);
  if (!Params.empty()) {
    Walker Inner(Ctx, *F.Module, &F, /*Summary=*/true);
    Inner.collectWrapped(F, Params, Out);
  }
  Ctx.WrappedInProgress.erase(&F);
  return Ctx.Wrapped[&F] = std::move(Out);
}

void Walker::wrappedCallables(TSNode Call,
                              const std::vector<PyFunction *> &Targets,
                              const PyCallFacts &Facts, bool ViaAttribute) {
  if (Summary || Active)
    return;
  for (PyFunction *T : Targets) {
    // `obj.helper(fn)` and `helper(fn)` pass fn at the same position;
    // `Class.helper(obj, fn)` does not (left alone).
    if (T->Owner && !ViaAttribute)
      continue;
    for (const PyWrappedParam &W : wrappedParams(*T)) {
      const PyValue *Arg = nullptr;
      if (W.Position < Facts.Args.size())
        Arg = &Facts.Args[W.Position];
      else if (auto K = Facts.Keywords.find(W.Name); K != Facts.Keywords.end())
        Arg = &K->second;
      if (!Arg)
        continue;
      std::string How = W.Via.empty()
                            ? "it calls '" + W.Name + "' under capture"
                            : "it passes '" + W.Name + "' to '" + W.Via +
                                  "', which captures it";
      if (W.Call.Src)
        How += " at " + llvm::sys::path::filename(W.Call.Src->path()).str() +
               ":" + std::to_string(W.Call.Src->line(W.Call.Offset));
      graphedCallables(Call, *Arg, T->Display, W.Mode, How);
    }
  }
}

} // namespace capture_lint::python::detail

namespace capture_lint::python {

bool callsCapturingHelper(PyContext &Ctx, PyFunction &F) {
  if (!F.Module || !F.Module->Src || isNull(F.Node))
    return false;
  detail::Walker W(Ctx, *F.Module, &F, /*Summary=*/true);
  return W.callsWrapper(F);
}

} // namespace capture_lint::python
