//===- PyWalkerImpl.h - The walker behind PyWalker.h -------------*- C++ -*-=//
//
// Private to the Python front end: the class that walks one function body.
// PyWalker.cpp has its statements and regions, PyExpressions.cpp its
// expressions and calls.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_PYTHON_PYWALKERIMPL_H
#define CAPTURE_LINT_PYTHON_PYWALKERIMPL_H

#include "PyWalker.h"
#include "rules/Rules.h"

#include <optional>
#include <set>

namespace capture_lint::python::detail {

using Env = std::map<std::string, PyValue>;

/// What \p F does to a capture (PyRoles.cpp; memoized in Ctx).
const PyCaptureRole &captureRoleOf(PyContext &Ctx, PyFunction &F);
/// Whether \p F begins a capture it leaves open for its caller (an opener).
bool opensForCaller(PyContext &Ctx, PyFunction &F);

class Walker {
public:
  Walker(PyContext &Ctx, PyModule &M, PyFunction *Fn, bool Summary)
      : Ctx(Ctx), M(M), S(*M.Src), Fn(Fn), Summary(Summary) {
    if (Summary)
      Active = &SummaryRegion;
  }

  void walkFunction();
  void walkModule();
  /// The program's function \p Call (in \p F) calls, or null.
  PyFunction *calledFunction(PyFunction &F, TSNode Call);
  void activate(PyRegion R) {
    Regions.push_back(std::move(R));
    ActiveIndex = Regions.size() - 1;
    Active = &Regions.back();
    OpenedByBegin = false;
    VarsAtBegin = Vars;
  }
  /// A region begun before the function starts and ended by its
  /// capture_end (begin in start(), end in stop()).
  void activateUntilEnd(PyRegion R) {
    activate(std::move(R));
    OpenedByBegin = true;
    EndsOnly = true;
  }
  /// The whole body runs under capture, entered with arguments the
  /// analysis cannot see (a declared or marked captured function): its
  /// branches on them count as path conditions, as in a followed call.
  void activateWholeBody(PyRegion R) {
    activate(std::move(R));
    WholeBody = true;
  }

  PyRegion SummaryRegion;
  /// In a summary: the calls of the function's parameters (PyParamCall).
  std::vector<PyParamCall> SummaryParamCalls;
  /// In a summary: hazards that depend on what callers pass (PyParamHazard).
  std::vector<PyParamHazard> SummaryParamHazards;
  std::vector<PyRegion> Regions;

  /// Whether \p F calls a function of the program that runs one of its
  /// parameters under capture, or an opener (PyWrappers.cpp).
  bool callsWrapper(PyFunction &F);

private:
  // Statements
  bool walkBlock(TSNode Block); // false: the rest of the caller runs only
                                // when not capturing
  bool walkStmt(TSNode N);
  bool walkIf(TSNode N);
  bool walkDecidedIf(TSNode N, bool Taken);
  bool walkWith(TSNode N);
  bool enterWithItem(TSNode Item,
                     std::vector<std::pair<std::string, PySite>> &Forks);
  PyRegion regionOfBegin(TSNode Call, const RegionApi &R,
                         const std::string &Full, TSNode &StreamNode);
  void walkFor(TSNode N);
  void walkTry(TSNode N);
  /// A function defined in the body: a local name for it, with its closure.
  void defineNested(TSNode N);
  std::optional<PyRegion> capturingContext(TSNode Call);
  std::optional<CaptureMode> regionAroundYield(PyFunction &F);
  bool captureBeginEnd(TSNode Call);
  /// Ends the region \p Call (a capture_end, or a call to a closer) ends.
  void endCapture(TSNode Call);
  /// A call to a function that begins a capture it leaves open, or ends
  /// one it did not begin (PyRoles.cpp); true when \p Call was one.
  bool captureRole(TSNode Call);
  void closeRegion(unsigned EndOffset);
  /// The forks of \p R not joined back become capture-unjoined-stream
  /// hazards, and those reached through calls whose stream \p R joins
  /// afterwards are dropped. In a summary, forks onto one of the function's
  /// parameters are left to its callers (they may join what they passed).
  void settleForks(PyRegion &R);

  // Expressions
  PyValue expr(TSNode N);
  // What expr() gives for each kind of expression.
  PyValue identifier(TSNode N);
  PyValue lambda(TSNode N);
  PyValue assignment(TSNode N); // and augmented assignment
  PyValue conditionalExpression(TSNode N);
  PyValue comparison(TSNode N);
  PyValue notOperator(TSNode N);
  /// `a and b`, `a or b`: b runs only on one side of a.
  PyValue booleanOperator(TSNode N);
  /// Containers, operators, parentheses and the rest: their parts merged.
  PyValue parts(TSNode N);
  PyValue call(TSNode N);
  PyValue callResult(TSNode N);
  /// A call's parts, evaluated: the receiver (or the callee expression)
  /// first, then the arguments.
  struct EvaluatedCall {
    TSNode Function, Arguments;
    std::string Full;   // the callee's dotted name, when it has one
    std::string Method; // for a method call
    PyValue Receiver, FnValue;
    PyCallFacts Facts; // Facts.Receiver points at Receiver
    std::vector<std::pair<TSNode, PyValue>> ArgValues;
  };
  void evaluateCall(TSNode N, EvaluatedCall &C);
  /// What the catalog makes of the call (a guard, a wrapper, an entry's
  /// hazard or a shape read): its value when that decides it.
  std::optional<PyValue> catalogResult(TSNode N, EvaluatedCall &C);
  /// The catalog entries the call matches: the first hazard is recorded
  /// (\p Recorded), a shape query gives the call's value.
  std::optional<PyValue> catalogEntries(TSNode N, const EvaluatedCall &C,
                                        bool &Recorded);
  /// Calls into the program followed; the value the call has.
  PyValue programResult(TSNode N, EvaluatedCall &C);
  /// Notes \p N when it calls a callable the analysis cannot see.
  void noteUnseen(TSNode N, const EvaluatedCall &C);
  /// Records \p N when it calls C++ bound to a name (PyOptions::NativeKeys).
  void noteNativeCall(TSNode N, const EvaluatedCall &C);
  /// Whether a class of \p Receiver (or a base) sets attribute \p Name.
  bool setsAttribute(const PyValue &Receiver, const std::string &Name);
  PyValue resultOf(const std::string &Full, const std::string &Method,
                   const PyValue &Receiver, const PyCallFacts &Facts);
  PyValue functionResult(llvm::StringRef Name, const PyCallFacts &Facts);
  PyValue methodResult(const std::string &Method, const PyValue &Receiver);
  PyValue percentFormat(TSNode N); // "..." % values
  /// \p Object: the value of N's object when the caller has it already (a
  /// method call's receiver), so that a chain is evaluated once per link.
  PyValue attribute(TSNode N, const PyValue *Object = nullptr);
  PyValue subscript(TSNode N);
  PyValue literal(TSNode N);
  PyValue condition(TSNode N, llvm::StringRef Keyword);
  void walkElseClauses(TSNode If);
  unsigned pushPath(TSNode Cond, const PyValue &V, bool Holds);
  void popPath(unsigned Count) { PathConds.resize(PathConds.size() - Count); }
  void markOpaque(PyValue &V, TSNode From) const;

  // Conditions decided by the catalog's "assume" section (PyAssume.cpp):
  // true or false under capture, or not known.
  std::optional<bool> assumed(TSNode Cond) const;
  std::optional<bool> assumedComparison(TSNode N) const;
  const Assumption *assumptionOf(TSNode N) const;
  std::string between(TSNode L, TSNode R) const;

  // Host state updated in the region and passed to captured work
  // (PyFrozen.cpp).
  void noteUpdate(TSNode Assign);
  /// `self.lengths.append(n)`: a host value added to persistent state.
  void noteContainerUpdate(TSNode Call, const EvaluatedCall &C);
  bool persistentState(TSNode Target) const;
  void tagFrozen(PyValue &V, TSNode N) const;
  void noteCarrier(TSNode Local, const PyValue &V);
  std::string capturedWork(TSNode Fn, const std::string &Full,
                           const std::string &Method, const PyValue &Receiver);
  void
  checkFrozenArguments(TSNode Call, const std::string &Work,
                       const std::vector<std::pair<TSNode, PyValue>> &Args);
  /// Whether condition \p N tells capture: 1 when it is true whenever the
  /// stream captures (its false side never runs under capture), -1 when it
  /// is false whenever the stream captures, 0 when it does not decide.
  int guardPolarity(TSNode N);
  void bind(TSNode Target, const PyValue &V);
  PyValue selfAttribute(PyClass *C, const std::string &Name);
  PyValue moduleGlobal(const std::string &Name);
  PyValue moduleLevel(const std::string &Key, TSNode E);
  std::vector<PyFunction *> callees(TSNode Fn, const PyValue *Receiver,
                                    const std::string &Method,
                                    const PyValue &FnValue);
  void follow(PyFunction *Callee, TSNode Site,
              const EvaluatedCall *Call = nullptr);
  /// A call of one of the summarized function's parameters: recorded, to
  /// be resolved where the function is called (PyParamCalls.cpp).
  bool noteParamCall(TSNode N, const EvaluatedCall &C);
  /// The parameter calls of \p Callee, called at \p Site as \p Call: the
  /// callables passed are followed from there, and a parameter passed on
  /// becomes this function's own parameter call.
  void followParamCalls(PyFunction *Callee, TSNode Site,
                        const EvaluatedCall &Call);
  const PyValue *passedFor(const PyFunction &Callee, unsigned Index,
                           const EvaluatedCall &Call) const;
  /// The hazards of \p Callee that depend on its arguments, for the values
  /// \p Call passes; a need on this function's own parameter is passed on.
  void followParamHazards(PyFunction *Callee, TSNode Site,
                          const EvaluatedCall &Call);
  /// Whether \p Call is a method call on this method's own `self`.
  bool callsOwnSelf(const EvaluatedCall &Call) const;
  /// Records a host-side-effect hazard on \p Target: in a method's summary,
  /// an update of `self.X` is one only for callers whose object is not one
  /// they made themselves.
  void recordHostUpdate(TSNode Target, PyHazard H);
  /// Records what the names here hold as \p Nested's closure.
  void noteClosure(const PyFunction *Nested);
  /// For `self.NAME = PARAM` in \p C's `__init__`: what the constructor's
  /// callers pass for PARAM (PyConstructors.cpp); nothing known otherwise.
  PyValue constructorArgument(PyClass *C, TSNode Init);
  /// What a parameter's annotation says it is: a tensor, or an instance of
  /// a class of the program.
  void annotate(PyValue &V, llvm::StringRef Annotation);
  void graphedCallables(TSNode Call, const PyValue &Arg,
                        const std::string &Name,
                        CaptureMode Mode = CaptureMode::Global,
                        const std::string &How = "");

  // Functions of the program that run a parameter under a capture they
  // open (PyWrappers.cpp).
  const std::vector<PyWrappedParam> &wrappedParams(PyFunction &F);
  void wrappedCallables(TSNode Call, const std::vector<PyFunction *> &Targets,
                        const PyCallFacts &Facts, bool ViaAttribute);
  std::optional<CaptureMode> regionOpenedBy(TSNode With);
  CaptureMode regionMode(TSNode Args, const RegionApi &R) const;
  /// The same for arguments in another file's source \p Src.
  CaptureMode regionMode(TSNode Args, const RegionApi &R,
                         const PySource &Src) const;
  std::vector<std::pair<TSNode, CaptureMode>> beginEndSpans(TSNode Block);
  std::vector<TSNode> captureStatements(const PyFunction &F) const;
  void collectWrapped(PyFunction &F,
                      const std::map<std::string, unsigned> &Params,
                      std::vector<PyWrappedParam> &Out);

  void record(PyHazard H) {
    if (!Active || Quiet)
      return;
    if (!H.Path && !PathConds.empty())
      H.Path = PathConds.back();
    Active->Hazards.push_back(std::move(H));
  }
  void recordApi(const ApiEntry *E, TSNode At, std::string Subject) {
    record(rules::catalogCall(E, {&S, begin(At)}, std::move(Subject)));
  }
  /// Records \p H, or in a summary keeps it for the callers when it \p
  /// Needs something of the parameters.
  void recordIf(PyHazard H, std::vector<PyParamNeed> Needs);
  std::string quote(TSNode N, size_t Max = 60) const {
    std::string T = S.text(N).str();
    for (char &C : T)
      if (C == '\n' || C == '\r')
        C = ' ';
    if (T.size() > Max)
      T = T.substr(0, Max - 3) + "...";
    return "'" + T + "'";
  }
  bool localHead(llvm::StringRef Dotted) const {
    llvm::StringRef Head = Dotted.split('.').first;
    return Vars.count(Head.str()) || Head == "self" || Head == "cls";
  }
  std::string fullName(TSNode N) const {
    std::string D = dottedName(S, N);
    if (D.empty() || localHead(D))
      return "";
    return Ctx.Prog.fullName(M, D, Fn);
  }
  const ApiEntry *firstEntry(const std::string &Name) const {
    auto Es = Ctx.Cat.function(Name);
    return Es.empty() ? nullptr : Es.front();
  }

  PyContext &Ctx;
  PyModule &M;
  const PySource &S;
  PyFunction *Fn;
  bool Summary;
  PyRegion *Active = nullptr;
  size_t ActiveIndex = 0;
  bool OpenedByBegin = false;
  bool EndsOnly = false;
  /// For capture-unended-on-error: how deep the walk is in `try` blocks and
  /// `finally` clauses, and the returns and raises outside `try` blocks
  /// since the capture_begin that opened the active region.
  unsigned InTry = 0, InFinally = 0, InExcept = 0;
  std::vector<PyExit> OpenExits;
  /// An except clause ended the active region: exceptions end it there.
  bool HandlerEnds = false;
  unsigned Quiet = 0;
  bool WholeBody = false;
  /// The branches on values the analysis cannot see around the statement
  /// being walked, outermost first (only in followed functions and whole
  /// captured bodies).
  std::vector<PyPathCondition> PathConds;
  /// The branches on the rank the walk is inside (PyCollectives.cpp).
  struct RankArm {
    TSNode Cond;    // the condition, or a loop's iterable
    TSNode Other;   // where the other arms are (null for a loop)
    TSNode Exclude; // this arm, inside Other
    bool Loop = false;
  };
  std::vector<RankArm> RankArms;
  /// The tensors a finished region of this function read that existed
  /// before it (its inputs), by name, with the first read (PyDangling.cpp).
  struct CapturedInputs {
    size_t Region;
    std::string Graph; // the graph as written ("g", "self.graph")
    std::map<std::string, PySite> Names;
  };
  std::vector<CapturedInputs> Captured;
  /// Inputs rebound after their capture, not yet followed by a replay.
  struct Rebinding {
    size_t Input; // index into Captured
    std::string Name;
    PySite At;
  };
  std::vector<Rebinding> Rebound;
  Env VarsAtBegin;
  /// Notes the inputs of the region closing at \p EndOffset.
  void noteCapturedInputs(unsigned EndOffset);
  /// Notes an assignment \p N that rebinds a captured input.
  void noteRebinding(TSNode N);
  /// At a replay call \p N of graph \p Graph: the inputs rebound before it
  /// become hazards of their region.
  void checkReplay(TSNode N, const std::string &Graph);
  /// At the end of the function: inputs it allocated itself that nothing
  /// keeps, read by a capture into a graph kept beyond the function.
  void checkDroppedInputs();
  /// Where the function keeps \p Graph beyond itself (an attribute or a
  /// parameter: \p Begin, the region's; returned, stored or added to a
  /// container), or nullopt.
  std::optional<PySite> graphKept(const std::string &Graph, PySite Begin) const;
  /// Whether every assignment of the local \p Name allocates new memory
  /// (a torch factory, `*_like`, `torch.tensor`, `.clone()`); its first.
  std::optional<PySite> freshAllocation(const std::string &Name) const;
  /// Whether \p Name (or a view of it, or a collection holding it) is
  /// returned, stored beyond a plain local, added to a container, or
  /// captured by a nested function or lambda.
  bool escapes(const std::string &Name) const;
  /// Enters a branch or loop on the rank (when \p Cond depends on it) for
  /// the walk of \p Walk; \p Other and \p Exclude as in RankArm.
  void underRankBranch(TSNode Cond, TSNode Other, TSNode Exclude, bool Loop,
                       llvm::function_ref<void()> Walk);
  /// Whether a call under \p Root, outside \p Exclude, makes a collective.
  bool makesCollective(TSNode Root, TSNode Exclude);
  /// Where \p F makes a collective, directly or through the program's
  /// functions it calls (memoized), if it does.
  std::optional<PySite> collectiveOf(PyFunction &F);
  /// Records a collective that call \p N makes under a branch on the rank
  /// that only some ranks take.
  void checkUnevenCollective(TSNode N, const EvaluatedCall &C);
  /// Host state updated in the region so far, by its text ("self.step"),
  /// with the update; locals that copied it, with the copy.
  std::map<std::string, PySite> Updates;
  std::map<std::string, PySite> Carriers;
  std::set<std::string> DeclaredGlobals; // `global NAME` in this function
  Env Vars;
};

} // namespace capture_lint::python::detail

#endif // CAPTURE_LINT_PYTHON_PYWALKERIMPL_H
