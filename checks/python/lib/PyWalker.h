//===- PyWalker.h - Walking Python functions for capture hazards -*- C++ -*-=//
//
// One walker per function body. In region mode it finds the capture
// regions the function opens (`with torch.cuda.graph(...)`,
// `capture_begin()` ... `capture_end()`, `make_graphed_callables(...)`) and
// records the hazards inside them; in summary mode (a function called from
// a region) it records every hazard of the body. Either way it walks the
// statements in order, tracks what each local name may be (PyConditions.h),
// skips code that runs only when the stream is not capturing (guards), and
// follows calls into functions of the program, whose summaries are
// memoized, cycle-safe and depth-bounded.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_PYTHON_PYWALKER_H
#define CAPTURE_LINT_PYTHON_PYWALKER_H

#include "PyCallSites.h"
#include "PyConditions.h"
#include "PyProgram.h"

#include "llvm/ADT/StringMap.h"

#include <optional>
#include <set>

namespace capture_lint::python {

struct PySite {
  const PySource *Src = nullptr;
  unsigned Offset = 0;
};

/// A call on the way from a region down to a hazard.
struct PyStep {
  PySite Site;
  std::string Callee; // "Block.forward"
};

/// A branch on a value the analysis cannot see (`if self.max_symbols is
/// None:`, `if attn_metadata.is_decoding:`) that a hazard of a followed
/// function sits under: the capture may never take that side.
struct PyPathCondition {
  PySite Site;
  std::string Text;  // "self.max_symbols is None"
  bool Holds = true; // false: the hazard is on the else side
};

/// A `return` or `raise` (Verb) at Site.
struct PyExit {
  PySite Site;
  const char *Verb = "return";
};

struct PyHazard {
  enum Form {
    ApiCall,
    Branch,
    Unjoined,
    FrozenArg,
    Unended,
    UnevenCollective,
    Rebound,
    Dropped,
    HostUpdate,
    Native // a call into C++ bound to a name: Detail holds its key
  } Kind = ApiCall;
  std::string Check;
  const ApiEntry *Entry = nullptr;
  std::string Subject; // "'x.item()'", "'if' condition 'n > 4'"
  std::string Detail;  // for branches: the shape read ("x.shape");
                       // for frozen arguments: the work ("'torch.full'")
  PySite Site;
  std::vector<PyStep> Chain;                         // outermost call first
  std::vector<std::pair<PySite, std::string>> Extra; // e.g. the update site
  std::string Through; // for frozen arguments: the local that carries it;
                       // for an unended capture: the exit's verb
  /// The innermost such branch on the way to the hazard, if any.
  std::optional<PyPathCondition> Path;
};

/// A call in a function's body to one of its own parameters (`fn(x)` in
/// `def apply(fn, x)`), directly or through functions it passes the
/// parameter to: what it runs is what each caller passes, so it is resolved
/// at the call sites (PyParamCalls.cpp).
struct PyParamCall {
  unsigned Index = 0;        // the parameter's position (self counted)
  PySite Site;               // the call of the parameter
  std::string Text;          // the callee as written there ("fn")
  std::vector<PyStep> Chain; // calls from the function down to Site
};

/// A hazard in a function's body that is one only when its callers pass
/// certain values (`ids.cuda()` on a parameter `ids` stages host memory when
/// a caller passes a CPU tensor; `x[mask]` sizes its result from data when
/// it passes a boolean mask): resolved at the call sites (PyParamCalls.cpp).
struct PyParamHazard {
  PyHazard Hazard;                // with the chain from the function down to it
  std::vector<PyParamNeed> Needs; // every one must hold
};

struct PyRegion {
  PySite Begin;
  unsigned EndOffset = 0;
  CaptureMode Mode = CaptureMode::Global;
  std::string Headline; // the note at Begin
  std::string Stream;
  std::string Graph; // the graph captured into, as written ("self.graph")
  std::vector<PyHazard> Hazards;
  /// `with torch.cuda.stream(s)` forks and the streams joined back.
  std::vector<std::pair<std::string, PySite>> Forks;
  std::set<std::string> Joined;
};

/// A parameter a function of the program calls under a capture it opens
/// (`def timing(fn): with torch.cuda.graph(g): fn()`), directly or by
/// passing it on to such a function: what its callers pass for it runs in
/// that capture.
struct PyWrappedParam {
  unsigned Position = 0; // among the arguments a caller writes (no self)
  std::string Name;
  CaptureMode Mode = CaptureMode::Global;
  PySite Call;     // where the function calls it, or passes it on
  std::string Via; // the helper it is passed to ("" when called here)
};

/// A call in a region (or a function it reaches) to a callable the analysis
/// cannot see: a parameter or local holding one, or an attribute set to
/// one (`self.model = build(cfg)`, then `self.model(x)`).
struct PyUnseenCall {
  std::string Callee; // as written: "self.model", "fn"
  PySite Site;
};

/// What every walker shares.
/// What a function does to a capture, through its own code and the
/// functions of the program it calls for their effect (PyRoles.cpp): the
/// capture_begin it reaches first, with the openers on the way, and whether
/// it ends a capture.
struct PyCaptureRole {
  TSNode Begin{};
  const PySource *BeginSrc = nullptr;
  const RegionApi *BeginApi = nullptr;
  /// The functions between it and the capture_begin, outermost first.
  std::vector<std::string> Via;
  bool Ends = false;
  /// It returns with a capture open that it began (an opener).
  bool opens() const { return BeginApi && !Ends; }
  /// It ends a capture it did not begin (a closer).
  bool closes() const { return Ends && !BeginApi; }
};

struct PyContext {
  PyProgram &Prog;
  const PyCatalog &Cat;
  unsigned MaxCallDepth = 8;
  /// PyOptions::NativeKeys.
  const std::set<std::string> *NativeKeys = nullptr;
  /// Some analysed file changes the default device (setsDefaultDevice):
  /// a factory without device= may then create on the GPU.
  bool DefaultDeviceSet = false;
  std::map<const PyFunction *, std::vector<PyHazard>> Summaries;
  std::map<const PyFunction *, std::vector<PyParamCall>> ParamCalls;
  std::map<const PyFunction *, std::vector<PyParamHazard>> ParamHazards;
  /// The streams held in objects (`self._active`) each summarized function
  /// joins back (`wait_stream(...)`): a region that calls it has them
  /// joined.
  std::map<const PyFunction *, std::set<std::string>> Joins;
  std::set<const PyFunction *> InProgress;
  unsigned Depth = 0;
  /// Entries made for functions .capture-lint.json declares synchronizing,
  /// allocating or reading back.
  std::map<std::string, std::unique_ptr<ApiEntry>> Declared;
  std::map<std::pair<const PyClass *, std::string>, PyValue> AttrCache;
  /// Per class, the calls of it in the program's modules (memoized: every
  /// field set from a constructor parameter reads the same calls).
  std::map<const PyClass *, std::vector<std::pair<PyModule *, TSNode>>>
      ConstructorCalls;
  /// Per module, where it calls what (made when a constructor's calls are
  /// first asked for: one scan of each module's text, no walk).
  std::map<const PyModule *, std::unique_ptr<PyCallSites>> CallSites;
  /// The callables and instances a module global or a constant entry of
  /// one holds (`TABLE = {"a": f}`, `TABLE["a"]`), by module and text.
  std::map<std::pair<const PyModule *, std::string>, PyValue> GlobalCache;
  /// Per nested function or lambda: what the names of the functions around
  /// it held where it was defined (its closure), merged over definitions.
  std::map<const PyFunction *, std::map<std::string, PyValue>> Closures;
  /// Per function, the parameters it runs under capture (memoized).
  std::map<const PyFunction *, std::vector<PyWrappedParam>> Wrapped;
  std::set<const PyFunction *> WrappedInProgress, YieldInProgress;
  /// Per function, a collective its code makes, directly or through the
  /// program's functions it calls (memoized; null when none).
  std::map<const PyFunction *, std::optional<PySite>> Collectives;
  /// Per function, its role for a capture (memoized).
  std::map<const PyFunction *, PyCaptureRole> Roles;
  std::set<const PyFunction *> RolesInProgress;
  /// Where the analysis stops, once per call site.
  std::vector<PyUnseenCall> Unseen;
  std::set<std::pair<const PySource *, unsigned>> UnseenSites;
  /// Adds \p Callee at \p Site to Unseen, once per site.
  void noteUnseen(std::string Callee, PySite Site) {
    if (UnseenSites.insert({Site.Src, Site.Offset}).second)
      Unseen.push_back({std::move(Callee), Site});
  }
};

/// The hazards of \p F's body (memoized).
const std::vector<PyHazard> &summarize(PyContext &Ctx, PyFunction *F);

/// The regions \p F opens (or its whole body when \p Captured says why
/// it always runs under capture), with their hazards.
std::vector<PyRegion> findRegions(PyContext &Ctx, PyFunction *F,
                                  const std::string &Captured);

/// The regions opened by a module's top-level statements.
std::vector<PyRegion> findModuleRegions(PyContext &Ctx, PyModule &M);

/// Whether \p F calls a function of the program that runs one of its
/// parameters under a capture it opens (a capture helper), or that begins a
/// capture it leaves open (an opener), so that \p F may open a region at
/// that call without naming any capture API.
bool callsCapturingHelper(PyContext &Ctx, PyFunction &F);

/// Whether a function declared "captured" by a `# capture-lint: captured`
/// comment on its def line, or the config names it so.
std::string capturedReason(PyContext &Ctx, const PyFunction &F);

} // namespace capture_lint::python

#endif // CAPTURE_LINT_PYTHON_PYWALKER_H
