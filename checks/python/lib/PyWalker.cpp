//===- PyWalker.cpp - Walking Python functions for capture hazards --------===//
//
// The walker's statements (blocks, if/for/while/with/try, guards) and the
// regions they open; the entry points of PyWalker.h.
//
//===----------------------------------------------------------------------===//

#include "PyWalkerImpl.h"
#include "llvm/ADT/STLExtras.h"

namespace capture_lint::python {

namespace detail {

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

/// The type an annotation names, without quotes, `Optional[...]` or
/// `| None`: "torch.Tensor", "Net"; containers stay as written.
static llvm::StringRef annotatedType(llvm::StringRef T) {
  T = T.trim().trim('"').trim('\'');
  if (T.consume_front("Optional[") || T.consume_front("typing.Optional["))
    T = T.drop_back().trim();
  if (T.ends_with("| None"))
    T = T.drop_back(6).trim();
  return T;
}

/// `torch.Tensor`, `Tensor`, `Optional[Tensor]`, `Tensor | None`; not
/// containers of tensors.
static bool isTensorAnnotation(llvm::StringRef T) {
  T = annotatedType(T);
  return T == "Tensor" || T == "torch.Tensor";
}

/// What an annotation of a type that is no tensor says of the value: a
/// string, a Python number, a process group (whose size() and rank() are
/// host integers); 0 for any other annotation.
static unsigned notTensorKinds(llvm::StringRef T) {
  T = annotatedType(T);
  if (T == "str")
    return VString | VNotTensor | VTypedNotTensor;
  if (T == "int" || T == "float" || T == "bool" || T == "complex" ||
      T == "bytes")
    return VHostData | VNotTensor | VTypedNotTensor;
  if (T == "ProcessGroup" || T == "dist.ProcessGroup" ||
      T == "torch.distributed.ProcessGroup")
    return VNotTensor | VTypedNotTensor;
  return 0;
}

void Walker::annotate(PyValue &V, llvm::StringRef Annotation) {
  if (isTensorAnnotation(Annotation)) {
    V.Kinds |= VTensor;
    return;
  }
  if (unsigned Kinds = notTensorKinds(Annotation)) {
    V.Kinds |= Kinds;
    return;
  }
  // A class of the program (`net: Net`, `block: "layers.Block"`): calls on
  // the parameter reach its methods.
  llvm::StringRef T = annotatedType(Annotation);
  if (T.empty() || !llvm::all_of(T, [](char C) {
        return std::isalnum(static_cast<unsigned char>(C)) || C == '_' ||
               C == '.';
      }))
    return;
  if (PyClass *C = Ctx.Prog.resolve(M, T, Fn).Class)
    V.Classes.push_back(C);
}

void Walker::noteClosure(const PyFunction *Nested) {
  if (!Fn || Vars.empty())
    return; // a module's names are its globals, read as such
  auto [It, New] = Ctx.Closures.try_emplace(Nested, Vars);
  if (!New)
    for (const auto &[Name, Value] : Vars)
      if (auto [At, Added] = It->second.try_emplace(Name, Value); !Added)
        At->second.merge(Value);
}

void Walker::walkFunction() {
  // A nested function or lambda reads the names around it (its closure);
  // its own parameters and assignments shadow them.
  if (auto C = Ctx.Closures.find(Fn); C != Ctx.Closures.end())
    Vars = C->second;
  auto Params = namedChildren(field(Fn->Node, "parameters"));
  for (unsigned I = 0; I < Params.size(); ++I) {
    TSNode P = Params[I];
    std::string Name;
    PyValue V;
    if (is(P, "identifier")) {
      Name = S.text(P).str();
    } else if (is(P, "typed_parameter") || is(P, "typed_default_parameter")) {
      TSNode Id = is(P, "typed_parameter") ? named(P, 0) : field(P, "name");
      Name = S.text(Id).str();
      annotate(V, S.text(field(P, "type")));
    } else if (is(P, "default_parameter")) {
      Name = S.text(field(P, "name")).str();
    }
    if (Name.empty())
      continue;
    if (I == 0 && Fn->Owner && (Name == "self" || Name == "cls")) {
      V.Classes.push_back(Fn->Owner);
    } else {
      V.Opaque = Name; // an argument: whatever the caller passes
      V.Param = static_cast<int>(I);
    }
    Vars[Name] = V;
  }
  TSNode Body = field(Fn->Node, "body");
  if (is(Fn->Node, "lambda")) {
    expr(Body);
  } else {
    walkBlock(Body);
  }
  if (Active && !Summary)
    closeRegion(end(Fn->Node));
  if (Summary)
    settleForks(SummaryRegion);
  else
    checkDroppedInputs();
}

void Walker::walkModule() {
  TSNode Root = S.root();
  for (TSNode N : namedChildren(Root)) {
    if (is(N, "function_definition") || is(N, "class_definition") ||
        is(N, "decorated_definition"))
      continue;
    if (!walkStmt(N))
      break;
  }
  if (Active && OpenedByBegin)
    closeRegion(end(Root));
}

bool Walker::walkBlock(TSNode Block) {
  for (TSNode Child : namedChildren(Block))
    if (!walkStmt(Child))
      return false;
  return true;
}

static bool endsWithExit(TSNode Block) {
  auto Stmts = namedChildren(Block);
  unsigned N = Stmts.size();
  while (N && is(Stmts[N - 1], "comment"))
    --N; // `return x  # why` ends with the return
  if (!N)
    return false;
  llvm::StringRef K = kind(Stmts[N - 1]);
  return K == "return_statement" || K == "raise_statement" ||
         K == "continue_statement" || K == "break_statement";
}

bool Walker::walkStmt(TSNode N) {
  llvm::StringRef K = kind(N);
  if ((K == "return_statement" || K == "raise_statement") && Active &&
      OpenedByBegin && !EndsOnly && !InTry && !(InExcept && HandlerEnds))
    OpenExits.push_back(
        {{&S, begin(N)}, K == "return_statement" ? "return" : "raise"});
  if (K == "expression_statement") {
    for (TSNode E : namedChildren(N)) {
      if (is(E, "call") && (captureBeginEnd(E) || captureRole(E)))
        continue;
      expr(E);
    }
    return true;
  }
  if (K == "assignment" || K == "augmented_assignment")
    return expr(N), true;
  if (K == "if_statement")
    return walkIf(N);
  if (K == "with_statement")
    return walkWith(N);
  if (K == "for_statement")
    return walkFor(N), true;
  if (K == "while_statement") {
    condition(field(N, "condition"), "while");
    underRankBranch(field(N, "condition"), TSNode{}, TSNode{}, true,
                    [&] { walkBlock(field(N, "body")); });
    return true;
  }
  if (K == "assert_statement") {
    if (namedCount(N))
      condition(named(N, 0), "assert");
    return true;
  }
  if (K == "function_definition")
    return defineNested(N), true;
  if (K == "global_statement" || K == "nonlocal_statement") {
    for (TSNode Child : namedChildren(N))
      DeclaredGlobals.insert(S.text(Child).str());
    return true;
  }
  // A raise already ends the capture; its message is not the bug.
  if (K == "raise_statement")
    return false;
  if (K == "class_definition" || K == "decorated_definition" ||
      K == "import_statement" || K == "import_from_statement" ||
      K == "comment" || K == "pass_statement")
    return true;
  if (K == "try_statement")
    return walkTry(N), true;
  if (K == "block")
    return walkBlock(N);
  // return, raise, del, global, match, ...: their expressions.
  for (TSNode C : namedChildren(N)) {
    if (is(C, "block"))
      walkBlock(C);
    else
      expr(C);
  }
  return true;
}

void Walker::defineNested(TSNode N) {
  std::string Name = S.text(field(N, "name")).str();
  PyValue V;
  PyFunction *Nested = Ctx.Prog.localFunction(
      &M, Fn ? Fn->Owner : nullptr, N,
      (Fn ? Fn->Display + "." : std::string()) + Name, Fn);
  noteClosure(Nested);
  V.Functions.push_back(Nested);
  Vars[Name] = V;
}

void Walker::walkTry(TSNode N) {
  for (TSNode C : namedChildren(N)) {
    if (is(C, "block")) {
      ++InTry; // its handlers decide what an exit here leaves open
      walkBlock(C);
      --InTry;
      continue;
    }
    // except, else and finally clauses: walked in order, as blocks
    bool Finally = is(C, "finally_clause"), Except = is(C, "except_clause");
    InFinally += Finally;
    InExcept += Except;
    for (TSNode Child : namedChildren(C))
      if (is(Child, "block"))
        walkBlock(Child);
    InFinally -= Finally;
    InExcept -= Except;
  }
}

/// +1: the condition is true only while capturing; -1: only while not
/// capturing; 0: unrelated to capture.
int Walker::guardPolarity(TSNode N) {
  N = stripParens(N);
  if (is(N, "not_operator"))
    return -guardPolarity(field(N, "argument"));
  if (is(N, "boolean_operator")) {
    int L = guardPolarity(field(N, "left")),
        R = guardPolarity(field(N, "right"));
    bool And =
        S.text(field(N, "operator")) == "and" || S.text(N).contains(" and ");
    // Under capture, `A and capturing()` is A: either side may run, so it
    // guards nothing; `A and not capturing()` is never true there. Dually,
    // `A or capturing()` is always true there; `A or not capturing()` is A.
    if (And)
      return L < 0 || R < 0 ? -1 : 0;
    return L > 0 || R > 0 ? 1 : 0;
  }
  if (is(N, "identifier")) {
    auto It = Vars.find(S.text(N).str());
    return It != Vars.end() && It->second.Guard ? 1 : 0;
  }
  if (is(N, "call")) {
    TSNode F = field(N, "function");
    std::string Full = fullName(F);
    if (!Full.empty() && Ctx.Cat.isGuard(Full))
      return 1;
    PyValue None;
    for (PyFunction *C : callees(F, nullptr, "", None)) {
      if (Ctx.Cat.isGuard(C->QualName) || Ctx.Cat.isGuard(C->Display))
        return 1;
      // A helper that returns the guard: `return torch.cuda.is_current_...()`
      TSNode Body = field(C->Node, "body");
      if (namedCount(Body) == 1 && is(named(Body, 0), "return_statement") &&
          namedCount(named(Body, 0)) == 1 && C != Fn) {
        Walker Inner(Ctx, *C->Module, C, true);
        if (Inner.guardPolarity(named(named(Body, 0), 0)) == 1)
          return 1;
      }
    }
  }
  return 0;
}

/// Pushes \p Cond as a path condition when it tests a value the analysis
/// cannot see and branches here count (a followed function or a whole
/// captured body); returns how many were pushed (0 or 1).
unsigned Walker::pushPath(TSNode Cond, const PyValue &V, bool Holds) {
  if (!(Summary || WholeBody) || V.tensor() || V.Guard ||
      !V.ShapeRead.empty() || V.Opaque.empty())
    return 0;
  std::string Text = quote(Cond);
  PathConds.push_back(
      {{&S, begin(Cond)}, Text.substr(1, Text.size() - 2), Holds});
  return 1;
}

/// An if whose condition the catalog's assumptions decide: only the branch
/// taken is walked, as certain (no path condition of its own). Returns
/// false when that branch always exits: the rest is not taken either.
bool Walker::walkDecidedIf(TSNode N, bool Taken) {
  TSNode Then = field(N, "consequence");
  if (!Taken) {
    walkElseClauses(N);
    return true;
  }
  walkBlock(Then);
  return !endsWithExit(Then);
}

bool Walker::walkIf(TSNode N) {
  TSNode Cond = field(N, "condition");
  int G = guardPolarity(Cond);
  if (auto Taken = G == 0 ? assumed(Cond) : std::nullopt)
    return walkDecidedIf(N, *Taken);
  TSNode Then = field(N, "consequence");
  // `if bad_shape: raise ...` checks an input, as an assert does: the
  // path recorded is the one every valid replay takes.
  bool Check = namedCount(Then) == 1 && is(named(Then, 0), "raise_statement") &&
               isNull(field(N, "alternative"));
  PyValue V;
  if (G == 0)
    V = condition(Cond, Check ? "assert-like if" : "if");
  Env Before = Vars;
  if (G >= 0) {
    unsigned Pushed = pushPath(Cond, V, true);
    underRankBranch(Cond, N, Then, false, [&] { walkBlock(Then); });
    popPath(Pushed);
  }
  // The else branches run only when not capturing: under capture, nothing
  // after an exiting `if capturing:` runs; outside a region, what follows
  // runs when not capturing, and may open one (a nested-capture check).
  if (G == 1)
    return !endsWithExit(Then) || !Active;
  // What a name holds after the if: what either side left in it (a side
  // that returns or raises leaves nothing).
  Env AfterThen = G >= 0 && !endsWithExit(Then) ? std::move(Vars) : Env();
  Vars = std::move(Before);
  unsigned Pushed = pushPath(Cond, V, false);
  underRankBranch(Cond, Then, TSNode{}, false, [&] { walkElseClauses(N); });
  popPath(Pushed);
  for (auto &[Name, Value] : AfterThen) {
    auto [It, New] = Vars.try_emplace(Name, Value);
    if (!New)
      It->second.merge(Value);
  }
  return true;
}

/// The elif and else clauses of \p If; each elif's condition is false on
/// the clauses after it.
void Walker::walkElseClauses(TSNode If) {
  unsigned Pushed = 0;
  for (TSNode C : namedChildren(If)) {
    if (is(C, "elif_clause")) {
      TSNode Cond = field(C, "condition");
      if (auto Taken = assumed(Cond)) {
        if (!*Taken)
          continue; // never taken; the clauses after it are walked
        walkBlock(field(C, "consequence"));
        break; // always taken: the clauses after it never are
      }
      PyValue V = condition(Cond, "elif");
      unsigned Here = pushPath(Cond, V, true);
      walkBlock(field(C, "consequence"));
      popPath(Here);
      Pushed += pushPath(Cond, V, false);
    } else if (is(C, "else_clause")) {
      walkBlock(field(C, "body"));
    }
  }
  popPath(Pushed);
}

void Walker::walkFor(TSNode N) {
  PyValue Seq = expr(field(N, "right"));
  if (!Seq.ShapeRead.empty() && !Seq.tensor()) {
    record(rules::shapeBranch("'for' loop over " + quote(field(N, "right")),
                              Seq.ShapeRead, {&S, begin(N)}));
  }
  PyValue Elem;
  if (Seq.Container || !Seq.Classes.empty())
    Elem.Classes = Seq.Classes;
  Elem.Fresh = Seq.Fresh;
  if (Seq.tensor())
    Elem.Kinds = VTensor;
  bind(field(N, "left"), Elem);
  underRankBranch(field(N, "right"), TSNode{}, TSNode{}, true,
                  [&] { walkBlock(field(N, "body")); });
}

/// The region a region-begin call (`torch.cuda.graph(g, ...)`) opens; its
/// stream argument, if any, in \p StreamNode.
PyRegion Walker::regionOfBegin(TSNode Call, const RegionApi &R,
                               const std::string &Full, TSNode &StreamNode) {
  PyRegion Region;
  Region.Begin = {&S, begin(Call)};
  TSNode Args = field(Call, "arguments");
  unsigned Pos = 0;
  for (TSNode A : namedChildren(Args)) {
    if (is(A, "keyword_argument")) {
      if (S.text(field(A, "name")) == "stream")
        StreamNode = field(A, "value");
      continue;
    }
    if (R.StreamArg >= 0 && Pos == unsigned(R.StreamArg))
      StreamNode = A;
    ++Pos;
  }
  Region.Mode = regionMode(Args, R);
  if (!isNull(StreamNode))
    Region.Stream = S.text(StreamNode).str();
  Region.Graph = S.text(named(Args, 0)).str();
  Region.Headline = "capture into graph " + quote(named(Args, 0)) +
                    " begins here (" + Full + "), mode " +
                    modeWords(Region.Mode);
  return Region;
}

/// One item of a `with`: a capture it opens (returns true), or a context
/// entered and bound to its alias; a `torch.cuda.stream(s)` fork is added
/// to \p Forks.
bool Walker::enterWithItem(TSNode Item,
                           std::vector<std::pair<std::string, PySite>> &Forks) {
  TSNode Value = field(Item, "value"), Alias{};
  if (is(Value, "as_pattern")) {
    Alias = field(Value, "alias");
    Value = named(Value, 0);
  }
  // A capture context held in a name: the call that made it.
  TSNode Made = Value;
  if (!Summary && !Active &&
      (is(Value, "identifier") || is(Value, "attribute"))) {
    PyValue Held = expr(Value);
    if (Held.ContextSrc == &S)
      Made = Held.ContextCall;
  }
  std::string Full = is(Made, "call") ? fullName(field(Made, "function")) : "";
  const RegionApi *R = Full.empty() ? nullptr : Ctx.Cat.region(Full);
  if (R && R->Kind == RegionApi::Begin && !Summary && !Active) {
    TSNode StreamNode{};
    PyRegion Region = regionOfBegin(Made, *R, Full, StreamNode);
    if (!ts_node_eq(Made, Value)) {
      Region.Begin = {&S, begin(Value)};
      Region.Headline += "; the context entered here was made at line " +
                         std::to_string(S.line(begin(Made)));
    }
    activate(std::move(Region));
    // The capture stream itself may be the legacy default stream.
    if (!isNull(StreamNode))
      expr(StreamNode);
    return true;
  }
  if (!Summary && !Active && is(Value, "call"))
    if (auto Wrapped = capturingContext(Value)) {
      activate(std::move(*Wrapped));
      return true;
    }
  PyValue V = expr(Value);
  if (Full == "torch.cuda.stream" && Active && is(Value, "call")) {
    TSNode Args = field(Value, "arguments");
    if (namedCount(Args))
      Forks.push_back({S.text(named(Args, 0)).str(), {&S, begin(Value)}});
  }
  if (!isNull(Alias))
    bind(named(Alias, 0), V);
  return false;
}

bool Walker::walkWith(TSNode N) {
  bool Opened = false;
  std::vector<std::pair<std::string, PySite>> Forks;
  TSNode Clause = named(N, 0);
  if (is(Clause, "with_clause"))
    for (TSNode Item : namedChildren(Clause))
      Opened |= enterWithItem(Item, Forks);
  if (Active)
    for (auto &F : Forks)
      Active->Forks.push_back(F);
  // A body that ends the path (a return, or a raise-if-capturing check in
  // a `with` that is no region) ends it after the block too: the body runs
  // once, and a context manager rarely swallows what it raises.
  bool Continues = walkBlock(field(N, "body"));
  if (Opened)
    closeRegion(end(N));
  return Continues || Opened;
}

/// A context manager of the program that captures the block it wraps: a
/// generator whose `yield` is inside `with torch.cuda.graph(...)` (the
/// usual @contextmanager), or a function .capture-lint.json names a
/// "wrapper". Returns the region it opens around the caller's block.
std::optional<PyRegion> Walker::capturingContext(TSNode Call) {
  PyValue None;
  for (PyFunction *F : callees(field(Call, "function"), nullptr, "", None)) {
    const FunctionNote *Note = Ctx.Cat.note(F->QualName);
    if (!Note)
      Note = Ctx.Cat.note(F->Display);
    if (Note && Note->Kind != FunctionNote::Wrapper)
      Note = nullptr;
    std::optional<CaptureMode> Mode;
    if (Note)
      Mode = CaptureMode::Global;
    else if (F->IsGenerator && is(F->Node, "function_definition"))
      Mode = regionAroundYield(*F);
    if (!Mode)
      continue;
    PyRegion R;
    R.Begin = {&S, begin(Call)};
    R.Mode = *Mode;
    R.Headline = "'" + F->Display + "' captures the block it wraps (" +
                 (Note ? "a wrapper in " + Note->File
                       : std::string("its 'with torch.cuda.graph' yields")) +
                 "), mode " + modeWords(*Mode);
    return R;
  }
  return std::nullopt;
}

/// The mode of a `with` in \p F that opens a capture (a region API, or
/// another capturing context manager) and whose body yields.
std::optional<CaptureMode> Walker::regionAroundYield(PyFunction &F) {
  const PySource &FS = *F.Module->Src;
  if (!Ctx.YieldInProgress.insert(&F).second)
    return std::nullopt; // context managers that enter each other
  Walker Inner(Ctx, *F.Module, &F, true);
  std::optional<CaptureMode> Out;
  visitOwnCode(field(F.Node, "body"), [&](TSNode N) {
    if (is(N, "with_statement") && FS.text(field(N, "body")).contains("yield"))
      Out = Inner.regionOpenedBy(N);
    return !Out;
  });
  Ctx.YieldInProgress.erase(&F);
  return Out;
}

/// `g.capture_begin(...)` opens a region until `g.capture_end()` (or the end
/// of the function); returns true when \p Call was one of them.
bool Walker::captureBeginEnd(TSNode Call) {
  TSNode F = field(Call, "function");
  if (!is(F, "attribute") || Summary)
    return false;
  std::string Method = S.text(field(F, "attribute")).str();
  const RegionApi *R = Ctx.Cat.regionMethod(Method);
  if (!R)
    return false;
  if (R->Kind == RegionApi::End) {
    endCapture(Call);
    return true;
  }
  if (Active)
    return true;
  PyRegion Region;
  Region.Begin = {&S, begin(Call)};
  Region.Mode = regionMode(field(Call, "arguments"), *R);
  Region.Stream = S.text(field(F, "object")).str();
  Region.Graph = Region.Stream;
  Region.Headline = "capture into graph " + quote(field(F, "object")) +
                    " begins here (capture_begin), mode " +
                    modeWords(Region.Mode);
  activate(std::move(Region));
  OpenedByBegin = true;
  OpenExits.clear();
  HandlerEnds = false;
  return true;
}

void Walker::endCapture(TSNode Call) {
  // An end in an except clause ends the capture on the error path; the
  // code after the try still runs under it.
  if (Active && OpenedByBegin && InExcept && !InFinally) {
    HandlerEnds = true;
    return;
  }
  if (Active && OpenedByBegin && !EndsOnly)
    if (auto H = rules::unendedOnError(OpenExits, InFinally || HandlerEnds,
                                       {&S, begin(Call)}, S.text(Call).str()))
      Active->Hazards.push_back(std::move(*H));
  OpenExits.clear();
  HandlerEnds = false;
  if (Active && OpenedByBegin)
    closeRegion(end(Call));
}

void Walker::settleForks(PyRegion &R) {
  llvm::erase_if(R.Hazards, [&](const PyHazard &H) {
    return H.Kind == PyHazard::Unjoined && !H.Chain.empty() &&
           R.Joined.count(H.Detail);
  });
  std::set<std::string> Params;
  if (Summary)
    for (TSNode P : namedChildren(field(Fn->Node, "parameters")))
      Params.insert(S.text(is(P, "identifier") ? P : named(P, 0)).str());
  for (auto &[Stream, Site] : R.Forks) {
    if (R.Joined.count(Stream) || Params.count(Stream))
      continue;
    // A stream a called function hands on (`self._active = stream`,
    // returned) is joined by whoever it is handed to.
    if (Summary &&
        llvm::StringRef(Stream).find_first_of(".([") == llvm::StringRef::npos &&
        escapes(Stream))
      continue;
    if (auto H = rules::unjoinedStream(firstEntry("torch.cuda.stream"), Stream,
                                       Site))
      R.Hazards.push_back(std::move(*H));
  }
  R.Forks.clear();
}

void Walker::closeRegion(unsigned EndOffset) {
  if (!Active)
    return;
  Active->EndOffset = EndOffset;
  noteCapturedInputs(EndOffset);
  settleForks(*Active);
  // Updates of this region are not those of a later one: that one records
  // the value the state has when it is captured.
  Updates.clear();
  Carriers.clear();
  if (OpenedByBegin && !EndsOnly && EndOffset == end(Fn ? Fn->Node : S.root()))
    Active->Headline += "; it is not ended in this function";
  EndsOnly = false;
  Active = nullptr;
  OpenedByBegin = false;
}

} // namespace detail

using detail::Walker;

const std::vector<PyHazard> &summarize(PyContext &Ctx, PyFunction *F) {
  static const std::vector<PyHazard> Empty;
  auto It = Ctx.Summaries.find(F);
  if (It != Ctx.Summaries.end())
    return It->second;
  if (Ctx.InProgress.count(F) || Ctx.Depth >= Ctx.MaxCallDepth)
    return Empty;
  Ctx.InProgress.insert(F);
  ++Ctx.Depth;
  Walker W(Ctx, *F->Module, F, /*Summary=*/true);
  W.walkFunction();
  --Ctx.Depth;
  Ctx.InProgress.erase(F);
  // Memoized even when a cycle or the depth bound cut it short: each
  // function is walked once (as the C++ analysis does).
  Ctx.ParamCalls[F] = std::move(W.SummaryParamCalls);
  Ctx.ParamHazards[F] = std::move(W.SummaryParamHazards);
  // Only streams held in objects (`self._active`): a local of the callee
  // names no stream of its caller.
  for (const std::string &J : W.SummaryRegion.Joined)
    if (J.find('.') != std::string::npos)
      Ctx.Joins[F].insert(J);
  auto &Slot = Ctx.Summaries[F];
  Slot = std::move(W.SummaryRegion.Hazards);
  return Slot;
}

std::string capturedReason(PyContext &Ctx, const PyFunction &F) {
  if (is(F.Node, "function_definition")) {
    // A comment on the def line (a child of the definition, before the body).
    const PySource &S = *F.Module->Src;
    unsigned DefLine = S.line(begin(F.Node));
    for (TSNode C : namedChildren(F.Node)) {
      if (is(C, "comment") && S.line(begin(C)) == DefLine &&
          S.text(C).contains("capture-lint: captured"))
        return "'" + F.Display +
               "' always runs under capture (# capture-lint: captured), "
               "checked as a global-mode region";
    }
  }
  const FunctionNote *N = Ctx.Cat.note(F.QualName);
  if (!N)
    N = Ctx.Cat.note(F.Display);
  if (N && N->Kind == FunctionNote::Captured)
    return "'" + F.Display + "' always runs under capture (" + N->File +
           "), checked as a global-mode region";
  return "";
}

/// The sibling method that calls capture_begin when \p F calls only
/// capture_end.
static PyFunction *beginInSibling(const PyFunction &F) {
  if (!F.Owner || !is(F.Node, "function_definition"))
    return nullptr;
  const PySource &S = *F.Module->Src;
  llvm::StringRef Body = S.text(F.Node);
  if (!Body.contains("capture_end(") || Body.contains("capture_begin("))
    return nullptr;
  for (auto &[Name, M] : F.Owner->Methods)
    if (M != &F && M->Module->Src->text(M->Node).contains("capture_begin("))
      return M;
  return nullptr;
}

std::vector<PyRegion> findRegions(PyContext &Ctx, PyFunction *F,
                                  const std::string &Captured) {
  Walker W(Ctx, *F->Module, F, /*Summary=*/false);
  if (!Captured.empty()) {
    PyRegion R;
    R.Begin = {F->Module->Src.get(), begin(field(F->Node, "name"))};
    R.Mode = CaptureMode::Global;
    R.Headline = Captured;
    R.EndOffset = end(F->Node);
    W.activateWholeBody(std::move(R));
  } else if (PyFunction *Begin = beginInSibling(*F)) {
    // Begun in a sibling method (start()), ended here (stop()): the
    // statements before capture_end are captured too.
    PyRegion R;
    R.Begin = {F->Module->Src.get(), begin(field(F->Node, "name"))};
    R.Mode = CaptureMode::Global;
    R.Headline = "'" + F->Display + "' ends the capture that '" +
                 Begin->Display +
                 "' begins (capture_begin), mode global; the code before "
                 "capture_end here runs under it";
    W.activateUntilEnd(std::move(R));
  }
  W.walkFunction();
  return std::move(W.Regions);
}

std::vector<PyRegion> findModuleRegions(PyContext &Ctx, PyModule &M) {
  Walker W(Ctx, M, nullptr, /*Summary=*/false);
  W.walkModule();
  return std::move(W.Regions);
}

} // namespace capture_lint::python
