//===- Catalog.h - What each API does under stream capture ------*- C++ -*-===//
//
// The API catalog is data: JSON files, one per API family, that say for each
// runtime/driver/library call what happens to it while a stream is capturing,
// per capture mode, plus which calls open and close a capture region and
// which calls query the capture status (guards). This header is the in-memory
// model and the loader. The loader validates every field and reports errors
// naming the file, the entry and the field; it never aborts. It needs no
// LLVM: capture-lint and the runtime probe (which builds on a GPU machine
// without LLVM) link this one library, so both read the catalog alike.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_CATALOG_H
#define CAPTURE_LINT_CATALOG_H

#include <array>
#include <deque>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace capture_lint {

/// The hazard classes; each maps to one clang-tidy check.
enum class Hazard {
  Sync,         // capture-sync-call
  HostRead,     // capture-host-read
  Allocation,   // capture-allocation
  LegacyStream, // capture-legacy-stream
  ShapeQuery,   // a taint source for capture-shape-branch
  RngState,     // capture-rng-state (generator seed/state)
  Collective,   // capture-collective (communicator set-up, object collectives)
  None,         // known and harmless (documents the catalog's knowledge)
};

/// Capture modes, in the order of cudaStreamCaptureMode's enumerators.
enum class CaptureMode {
  Global = 0,
  ThreadLocal = 1,
  Relaxed = 2,
  Unknown = 3
};

/// What a call does while a stream is capturing in a given mode.
enum class Behaviour {
  Illegal,  // fails, and invalidates the capture
  Eager,    // runs once at capture time and is not recorded in the graph
  Note,     // legal, but worth a remark (an allocation from a graph pool)
  Captured, // recorded into the graph
  Legal,    // allowed, not part of the graph (queries, stream creation)
};

std::string_view hazardName(Hazard H);
std::string_view modeName(CaptureMode M);
/// A region's mode as its note names it: "global", ..., or "unknown (not a
/// constant; checked as global)".
std::string modeWords(CaptureMode M);
/// "in a global-mode capture", ...: where a finding's consequence happens
/// (both analyses word it so).
std::string modePhrase(CaptureMode M);
std::string_view behaviourName(Behaviour B);
std::optional<Hazard> parseHazard(std::string_view S);
std::optional<CaptureMode> parseMode(std::string_view S);
std::optional<Behaviour> parseBehaviour(std::string_view S);

/// The stream argument of an API: where it is, and whether leaving it out
/// means the legacy default stream.
struct StreamArg {
  unsigned Index = 0;
  bool DefaultIsLegacy = true;
};

/// A condition on an argument: the entry applies only when the argument
/// names one of these declarations (e.g. Tensor::to only with kCPU).
struct ArgCondition {
  unsigned Index = 0;
  std::vector<std::string> AnyOf;
};

/// One API call the catalog knows.
struct ApiEntry {
  std::string Name;                  // qualified for C++ ("at::Tensor::item")
  std::vector<std::string> Variants; // _v2, _ptsz, _ptds, macro targets...
  std::string Display;               // how a diagnostic names it
  Hazard Class = Hazard::None;
  std::array<Behaviour, 3> Modes = {Behaviour::Legal, Behaviour::Legal,
                                    Behaviour::Legal};
  /// For a call given a stream that is not the capturing one (a sync of
  /// another, idle stream: eager in relaxed mode), when that differs.
  std::optional<std::array<Behaviour, 3>> OtherStreamModes;
  std::string Error; // "cudaErrorStreamCaptureUnsupported (900)"
  std::optional<StreamArg> Stream;
  /// For copies: the argument holding the cudaMemcpyKind, and the
  /// destination pointer argument (used for D2H tracking).
  std::optional<unsigned> CopyKindArg;
  std::optional<unsigned> CopyDstArg;
  std::optional<ArgCondition> WhenArg;
  /// Only when this argument is a host address (`&local`, a local array):
  /// cuBLAS results in host pointer mode.
  std::optional<unsigned> HostPointerArg;
  /// Only when this argument is a null pointer (CUB's temp-storage query).
  std::optional<unsigned> NullArg;
  /// Not when this argument's type names one of these (Thrust's par_nosync).
  std::optional<ArgCondition> UnlessArgType;
  /// Not when the translation unit calls one of AnyOf with the same value at
  /// argument Index (a cuBLAS handle given a workspace).
  std::optional<ArgCondition> UnlessCalled;
  /// The entry describes toolkits before this CUDA version only
  /// (CUDART_VERSION, e.g. 12020 for 12.2): from it on the call is captured.
  /// Applied when the analysed headers tell the version.
  std::optional<int> UntilCuda;
  /// Conditions only the Python front end checks ("receiver:tensor",
  /// "arg0:host-data", "keyword:device:cuda-device", ...; docs/python.md).
  /// C++ call names contain "::" and Python ones ".", so the two never meet.
  std::vector<std::string> PythonWhen;
  std::string Message; // what it does, e.g. "allocates device memory"
  std::string Fix;     // what to do instead
  std::string Source;  // the capture-rules.md row it comes from
  std::string Family;  // the catalog file's family
  std::string File;    // where it was loaded from

  bool hasArgConditions() const {
    return WhenArg || HostPointerArg || NullArg || UnlessArgType;
  }

  Behaviour behaviourIn(CaptureMode M) const {
    return Modes[M == CaptureMode::Unknown ? 0 : static_cast<int>(M)];
  }
  /// In mode \p M, given a stream other than the capturing one when
  /// \p OtherStream.
  Behaviour behaviourIn(CaptureMode M, bool OtherStream) const {
    if (!OtherStream || !OtherStreamModes)
      return behaviourIn(M);
    return (
        *OtherStreamModes)[M == CaptureMode::Unknown ? 0 : static_cast<int>(M)];
  }
};

/// Whether \p Condition is a well-formed python_when condition; on failure
/// \p Why says what is wrong.
bool isValidPythonCondition(std::string_view Condition, std::string &Why);

/// A call that begins or ends a capture region.
struct RegionApi {
  /// Destroy: the call ends the stream's life (cudaStreamDestroy), so no
  /// capture of that stream goes on past it; it ends no capture elsewhere.
  enum Role { Begin, End, Destroy };
  std::string Name;
  std::vector<std::string> Variants;
  Role Kind = Begin;
  std::string Group; // begin and end of one group pair up
  /// Argument index of the stream; ObjectArg when the region is keyed by
  /// the implicit object (at::cuda::CUDAGraph::capture_begin); NoStreamArg
  /// when the call names no stream (an engine's `begin_graph()` capturing
  /// its own current stream): begins and ends then pair by group.
  static constexpr int ObjectArg = -1, NoStreamArg = -2;
  int StreamArg = 0;
  /// Whether the region is a graph object's (keyed by the object).
  bool keyedByObject() const { return StreamArg == ObjectArg; }
  std::optional<unsigned> ModeArg;
  CaptureMode DefaultMode = CaptureMode::Global;
  std::string Source;
  std::string Family;
  std::string File;
};

/// A call that reports whether a stream is capturing.
struct GuardApi {
  std::string Name;
  std::vector<std::string> Variants;
  /// Argument index of the status out-parameter, or -1 when the status is
  /// the return value.
  int StatusArg = -1;
  /// Enumerator names (qualified or not) that mean "not capturing".
  std::vector<std::string> NoneValues;
  std::string Source;
  std::string Family;
  std::string File;
};

/// What the project says about one of its own functions (the "functions"
/// section of a catalog or .capture-lint.json; the same as the annotations
/// in capture_lint/annotations.h, for code that cannot be edited).
struct FunctionNote {
  enum Role {
    Captured,         // its body always runs under capture
    Safe,             // vouched safe: callers in regions do not descend
    Wrapper,          // runs argument Argument under a capture it begins
    CapturePredicate, // returns true when the stream is capturing
    Synchronizes,     // treated like a catalog entry of that hazard
    Allocates,
    ReadsBack,
  };
  std::string Name; // qualified ("Model::forward")
  Role Kind = Captured;
  unsigned Argument = 0; // for Wrapper
  std::string Source;
  std::string Family;
  std::string File;
};

/// What the engine fixes while it captures (the "assume" section): a
/// Python expression, matched by its text with whitespace normalised, and
/// the value it has under capture. Branches on it are decided.
struct Assumption {
  enum Value { True, False, None, NotNone };
  std::string Expr; // normalised (normaliseExpression)
  Value Is = True;
  std::string Source;
  std::string Family;
  std::string File;
};

std::string_view assumedValueName(Assumption::Value V);
/// \p Text with runs of whitespace removed, except one space between two
/// word characters ("self . x" and "self.x" match; "not  x" is "not x").
std::string normaliseExpression(std::string_view Text);

std::string_view functionRoleName(FunctionNote::Role R);
std::optional<FunctionNote::Role> parseFunctionRole(std::string_view S);

/// \p Name with every <...> left out ("std::vector<int>::resize" ->
/// "std::vector::resize"): the catalog names templates without arguments.
std::string withoutTemplateArguments(std::string_view Name);

/// Lists of names that are knowledge but not one API's behaviour (the
/// "name_lists" section; each file may add to each list).
enum class NameList {
#define NAME_LIST(Enumerator, Key) Enumerator,
#include "capture_lint/NameLists.def"
};
constexpr size_t NumNameLists = 0
#define NAME_LIST(Enumerator, Key) +1
#include "capture_lint/NameLists.def"
    ;
/// "stream_work_prefixes", "queries", ...: the section's keys.
std::string_view nameListName(NameList L);
std::optional<NameList> parseNameList(std::string_view S);

/// The effective catalog: the built-in files plus user files, later files
/// overriding earlier entries of the same name.
class Catalog {
public:
  /// Parses one catalog document and adds its entries; false, with \p Error
  /// naming \p Origin, the entry and the field, when it is not a valid
  /// catalog (then nothing of it is added).
  bool addDocument(std::string_view Text, std::string_view Origin,
                   std::string &Error);
  /// Reads and parses a file (a regular file of at most 64 MiB).
  bool addFile(const std::string &Path, std::string &Error);
  /// Adds the catalog compiled into the tool.
  void addBuiltin();

  const ApiEntry *findApi(std::string_view QualifiedName) const;
  const RegionApi *findRegionApi(std::string_view QualifiedName) const;
  const GuardApi *findGuard(std::string_view QualifiedName) const;
  const FunctionNote *findFunction(std::string_view QualifiedName) const;
  /// The assumption about an expression (its normalised text), if any.
  const Assumption *findAssumption(std::string_view Expr) const;
  /// Whether some API, region, guard or function entry's name ends with
  /// \p Unqualified ("capture_begin" for at::cuda::CUDAGraph::capture_begin,
  /// template arguments left out): a quick test before a function's
  /// qualified name is printed to look it up.
  bool mayList(std::string_view Unqualified) const {
    return LastNames.count(Unqualified) != 0;
  }

  /// Whether \p Name is on the list \p L.
  bool listed(NameList L, std::string_view Name) const {
    return Lists[size_t(L)].count(Name) != 0;
  }
  /// Whether some name on the list \p L is a prefix of \p Name.
  bool listedAsPrefix(NameList L, std::string_view Name) const;
  const std::set<std::string, std::less<>> &nameList(NameList L) const {
    return Lists[size_t(L)];
  }

  /// Names (with variants) of every region-begin call, for matchers.
  std::vector<std::string> beginNames() const;

  const std::vector<std::unique_ptr<ApiEntry>> &apis() const { return Apis; }
  const std::vector<std::unique_ptr<RegionApi>> &regions() const {
    return Regions;
  }
  const std::vector<std::unique_ptr<GuardApi>> &guards() const {
    return Guards;
  }
  const std::vector<std::unique_ptr<FunctionNote>> &functions() const {
    return Functions;
  }
  const std::vector<std::unique_ptr<Assumption>> &assumptions() const {
    return Assumptions;
  }

  /// The effective catalog as one JSON document (same schema as the files).
  std::string toJson() const;

private:
  std::vector<std::unique_ptr<ApiEntry>> Apis;
  std::vector<std::unique_ptr<RegionApi>> Regions;
  std::vector<std::unique_ptr<GuardApi>> Guards;
  std::vector<std::unique_ptr<FunctionNote>> Functions;
  std::vector<std::unique_ptr<Assumption>> Assumptions;
  // Keyed by views of the entries' own names: entries are never removed (a
  // later one of the same name takes the key over), so the views stay valid.
  std::unordered_map<std::string_view, ApiEntry *> ApiByName;
  std::unordered_map<std::string_view, RegionApi *> RegionByName;
  std::unordered_map<std::string_view, GuardApi *> GuardByName;
  std::unordered_map<std::string_view, FunctionNote *> FunctionByName;
  std::unordered_map<std::string_view, Assumption *> AssumptionByExpr;
  std::array<std::set<std::string, std::less<>>, NumNameLists> Lists;
  std::deque<std::string> LastNameStore;          // what LastNames views
  std::unordered_set<std::string_view> LastNames; // see mayList

  void noteLastName(std::string_view Name);
  template <typename T>
  void index(std::unordered_map<std::string_view, T *> &Map, T *E);
};

/// The built-in catalog files, compiled in: (file name, JSON text).
struct BuiltinCatalogFile {
  const char *Name;
  const char *Text;
};
/// Generated from checks/catalog/*.json by cmake/EmbedCatalog.cmake.
const std::vector<BuiltinCatalogFile> &builtinCatalogFiles();

} // namespace capture_lint

#endif // CAPTURE_LINT_CATALOG_H
