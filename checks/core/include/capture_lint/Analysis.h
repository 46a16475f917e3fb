//===- Analysis.h - Capture hazards of a translation unit -------*- C++ -*-===//
//
// The public entry point of the core library. A CaptureAnalyzer is created
// per translation unit; analyzeFunction() is called for every function that
// contains a region-begin call. It finds the regions (RegionFinder), scans
// each statement inside them for hazards (HazardScanner), follows calls into
// functions whose bodies the TU has (memoized, cycle-safe, depth-bounded),
// and turns each hazard into a Finding with a message that depends on the
// region's capture mode, plus notes from the region down to the offending
// call. Findings are deduplicated, so template instantiations and
// overlapping regions report once.
//
// This library does not depend on clang-tidy: the checks in checks/tidy and
// the unit tests both drive it.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_ANALYSIS_H
#define CAPTURE_LINT_ANALYSIS_H

#include "capture_lint/Catalog.h"
#include "capture_lint/RegionFinder.h"

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
enum class CheckKind {
  SyncCall,
  HostRead,
  Allocation,
  ShapeBranch,
  LegacyStream,
  UnendedRegion,
};
constexpr unsigned NumCheckKinds = 6;
llvm::StringRef checkName(CheckKind K); // "capture-sync-call", ...
std::optional<CheckKind> checkKindOf(llvm::StringRef Name);

enum class Severity { Error, Warning, Remark };
llvm::StringRef severityName(Severity S);

struct AnalysisOptions {
  /// Methods whose result is a tensor shape (capture-shape-branch).
  std::vector<std::string> ShapeFunctions = {
      "size", "sizes", "numel", "dim", "sym_size", "sym_sizes", "sym_numel"};
  /// Classes those methods belong to (or classes derived from them).
  std::vector<std::string> TensorClasses = {"at::TensorBase", "at::Tensor"};
  /// How deep calls out of a region are followed.
  unsigned MaxCallDepth = 8;
};

struct DiagNote {
  clang::SourceLocation Loc;
  std::string Message;
};

struct Finding {
  CheckKind Check = CheckKind::SyncCall;
  Severity Level = Severity::Warning;
  clang::SourceLocation Loc; // a file location
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
};

class CaptureAnalyzer {
public:
  CaptureAnalyzer(clang::ASTContext &Ctx, const Catalog &Cat,
                  AnalysisOptions Opts = {});
  ~CaptureAnalyzer();

  /// Analyses the capture regions a function begins. Idempotent.
  void analyzeFunction(const clang::FunctionDecl *FD);

  const std::vector<Finding> &findings() const { return Findings; }

private:
  struct Impl;
  std::unique_ptr<Impl> P;
  std::vector<Finding> Findings;
};

/// Turns a raw hazard into a finding for a region of \p Mode; nullopt when
/// the hazard is harmless in that mode (a captured or legal call).
std::optional<Finding> materialize(const RawHazard &H,
                                   const CaptureRegion &Region,
                                   clang::SourceLocation ReportLoc,
                                   llvm::StringRef CalleeAtReport,
                                   const clang::ASTContext &Ctx);

} // namespace capture_lint

#endif // CAPTURE_LINT_ANALYSIS_H
