//===- Analysis.h - Capture hazards of a translation unit -------*- C++ -*-===//
//
// The public entry point of the core library. A CaptureAnalyzer is created
// per translation unit; analyzeFunction() is called for every function
// definition (cheap for functions that touch no capture), then finish(). It
// computes user functions' roles (FunctionRoles.h: openers, closers,
// wrappers, capture predicates, annotations), finds the regions
// (RegionFinder), including the bodies that run under a wrapper's capture
// and functions declared to run under capture, scans
// each statement inside them for hazards (HazardScanner), follows calls into
// functions whose bodies the TU has (memoized, cycle-safe, depth-bounded),
// and turns each hazard into a ClangFinding with a message that depends on
// the region's capture mode, plus notes from the region down to the
// offending call. Findings are deduplicated, so template instantiations and
// overlapping regions report once.
//
// This library does not depend on clang-tidy: the checks in checks/tidy and
// the unit tests both drive it.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_ANALYSIS_H
#define CAPTURE_LINT_ANALYSIS_H

#include "capture_lint/Catalog.h"
#include "capture_lint/Message.h"
#include "capture_lint/RegionFinder.h"
#include "capture_lint/RoleImports.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <set>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace capture_lint {

/// One per clang-tidy check.
/// The checks the C++ analysis reports, in the registry's order
/// (checks/registry/Checks.def).
#define CAPTURE_CHECK_IF_CPP_1(Kind) Kind,
#define CAPTURE_CHECK_IF_CPP_0(Kind)
enum class CheckKind {
#define CAPTURE_CHECK(Kind, Name, Cpp, Python, Owns, Severity, Summary, Why,   \
                      Fix, Finds)                                              \
  CAPTURE_CHECK_IF_CPP_##Cpp(Kind)
#include "Checks.def"
#undef CAPTURE_CHECK
};
constexpr unsigned NumCheckKinds = 0
#define CAPTURE_CHECK(Kind, Name, Cpp, Python, Owns, Severity, Summary, Why,   \
                      Fix, Finds)                                              \
  +Cpp
#include "Checks.def"
#undef CAPTURE_CHECK
    ;
llvm::StringRef checkName(CheckKind K); // "capture-sync-call", ...
std::optional<CheckKind> checkKindOf(llvm::StringRef Name);

struct AnalysisOptions {
  /// Methods whose result is a tensor shape (capture-shape-branch).
  std::vector<std::string> ShapeFunctions = {
      "size", "sizes", "numel", "dim", "sym_size", "sym_sizes", "sym_numel"};
  /// Classes those methods belong to (or classes derived from them).
  std::vector<std::string> TensorClasses = {"at::TensorBase", "at::Tensor"};
  /// How deep calls out of a region are followed.
  unsigned MaxCallDepth = 8;
  /// The CUDA runtime version the analysed headers declare (CUDART_VERSION),
  /// when known: catalog entries with until_cuda at or below it do not apply.
  std::optional<int> CudaVersion;
  /// Keep calls from regions to functions whose bodies this translation
  /// unit lacks (RawHazard::External), for the whole-program pass.
  bool RecordExternalCalls = false;
  /// Roles of functions other TUs define (whole-program runs), for the
  /// calls this TU makes to them.
  std::shared_ptr<const RoleImports> Imports;
};

struct ClangFinding {
  CheckKind Check = CheckKind::SyncCall;
  Severity Level = Severity::Warning;
  clang::SourceLocation Loc; // a file location
  /// The offending call itself (Loc, or the end of the chain of calls when
  /// the finding is reported at a call inside the region).
  clang::SourceLocation HazardLoc;
  /// The function called at Loc that reaches the hazard ("" when it is
  /// at Loc).
  std::string Via;
  std::string Message;
  std::string Api; // the offending API ("cudaMalloc", "kernel launch", ...)
  std::vector<DiagNote> Notes; // call chain, then the region's begin
  // The region the finding is in.
  clang::SourceLocation RegionBegin;
  clang::SourceLocation RegionEnd; // invalid when never ended in the function
  CaptureMode Mode = CaptureMode::Global;
  std::string Stream;
  /// Mechanical fixes (see FixIts.h); empty when none is safe.
  std::vector<clang::FixItHint> Fixes;
};

/// A hazard as found in code, before a region's mode gives it a severity.
struct RawHazard {
  enum Form {
    ApiCall,     // a catalog entry's own hazard (cudaMalloc, item, ...)
    LegacyArg,   // a stream argument meaning the legacy default stream
    PendingRead, // a host read of an async D2H copy's destination
    Branch,      // control flow on a shape or a device value
    External,    // a call to a function defined elsewhere (Detail: its USR)
    Overrides,   // a virtual call: the overrides other files define (Detail:
                 // the called method's USR, Followed: the overrides this
                 // TU followed itself)
    OtherStream, // stream-ordered allocation on a stream that is not part of
                 // the capture (Detail: its streamKey, Origin: as written)
    FrozenArg,   // an argument of captured work carrying host state the
                 // region updates (Detail: the state, Origin: the local
                 // carrying it, Api: the work)
  };
  Form Kind = ApiCall;
  CheckKind Check = CheckKind::SyncCall;
  const ApiEntry *Entry = nullptr;
  std::string Api;    // display name
  std::string Detail; // legacy spelling / variable / condition kind
  std::string Origin; // what a branch depends on, the copy that writes...
  clang::SourceLocation Loc;
  std::vector<DiagNote> Extra; // explanatory notes at the hazard's end
  /// Calls from the reporting site down to the hazard: "'f' calls 'g' here".
  std::vector<DiagNote> Chain;
  /// Names of the functions on the way down, outermost first.
  std::vector<std::string> Through;
  /// When reached through a call: that call, inside the region.
  clang::SourceLocation CallSite;
  /// For LegacyArg: the call whose argument StreamIndex is the stream (a
  /// kernel launch's configuration call, or the API call).
  const clang::CallExpr *StreamCall = nullptr;
  unsigned StreamIndex = 0;
  /// For LegacyArg: a <<<...>>> launch (Api then reads "kernel launch 'k'").
  bool KernelLaunch = false;
  /// For LegacyArg: a capture-status query (cudaStreamIsCapturing) of the
  /// legacy stream rather than work on it.
  bool StatusQuery = false;
  /// The thread was switched to relaxed mode around the call.
  bool ThreadRelaxed = false;
  /// For ApiCall in the region's own function: the key (streamKey) of the
  /// stream the call is given, for entries that behave otherwise on a
  /// stream that is not the capturing one (ApiEntry::OtherStreamModes).
  std::string StreamKey;
  /// For Overrides: the USRs of the overrides followed in this TU.
  std::vector<std::string> Followed;
  /// For External: the constant the call passes to each integral or enum
  /// parameter it fixes (parameter index, value), and the caller's own
  /// parameters it passes on (parameter index, caller's parameter index),
  /// so that the whole-program phase decides the callee's branches.
  std::vector<std::pair<unsigned, int64_t>> ConstantArgs;
  std::vector<std::pair<unsigned, unsigned>> PassedParams;
};

/// A region's call to a function this translation unit has no body for.
struct ExternalUse {
  CaptureRegion Region;
  RawHazard Call; // Kind External
};

/// The text of a finding for a hazard in a region, without locations: its
/// check's rule words it, Message.h composes it. \p Where, for a hazard
/// reached through \p Via, says where the offending call is
/// ("sampler.cu:19"), so that two calls reached through one call in the
/// region are two findings with their own messages.
std::optional<FindingText> describeHazard(const RawHazard &H,
                                          const CaptureRegion &Region,
                                          llvm::StringRef Via,
                                          llvm::StringRef Where = "");

/// "file.cu:19" for a location (the file's name without its directory).
std::string shortLocation(clang::SourceLocation Loc,
                          const clang::SourceManager &SM);

/// The entries that stand for functions declared (by annotation or config)
/// to synchronize, allocate or read back: "synchronizes", "allocates",
/// "reads-back"; null for other names.
const ApiEntry *declaredApiEntry(llvm::StringRef Name);

/// The first note of a finding: where (and how) its region begins.
std::string regionHeadline(const CaptureRegion &R);

class CaptureAnalyzer {
public:
  CaptureAnalyzer(clang::ASTContext &Ctx, const Catalog &Cat,
                  AnalysisOptions Opts = {});
  ~CaptureAnalyzer();

  /// Analyses the capture regions a function begins (directly, through an
  /// opener or a RAII guard), the callables it passes to capture wrappers,
  /// and its body when it is declared to run under capture. Idempotent.
  void analyzeFunction(const clang::FunctionDecl *FD);

  /// Reports what needs the whole translation unit (regions never ended,
  /// unless another function here closes them). Call once, at the end.
  void finish();

  const std::vector<ClangFinding> &findings() const { return Findings; }

  clang::ASTContext &context() const;

  /// The role of a user function (null: none).
  const FunctionRole *roleOf(const clang::FunctionDecl *FD);

  /// With RecordExternalCalls: the regions' calls into other TUs.
  const std::vector<ExternalUse> &externalUses() const;

  /// What a function reaches when it runs inside a caller's region
  /// (External hazards included when recorded). Empty for none.
  std::vector<RawHazard> calleeHazards(const clang::FunctionDecl *FD,
                                       const ParamBindings &Bound = {});

private:
  struct Impl;
  std::unique_ptr<Impl> P;
  std::vector<ClangFinding> Findings;
};

/// Turns a raw hazard into a finding for a region of \p Mode; nullopt when
/// the hazard is harmless in that mode (a captured or legal call).
std::optional<ClangFinding> materialize(const RawHazard &H,
                                        const CaptureRegion &Region,
                                        clang::SourceLocation ReportLoc,
                                        llvm::StringRef CalleeAtReport,
                                        const clang::ASTContext &Ctx);

} // namespace capture_lint

#endif // CAPTURE_LINT_ANALYSIS_H
