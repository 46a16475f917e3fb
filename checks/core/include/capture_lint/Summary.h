//===- Summary.h - What a translation unit tells the whole program -*- C++ -*-//
//
// The first phase of the whole-program analysis. For one translation unit,
// a TuSummary holds
//  - for every function defined in user code, keyed by its USR, the hazards
//    it reaches when it runs inside a caller's region (with the calls it
//    makes to functions defined elsewhere left unresolved), and
//  - every call a capture region of this TU makes to a function defined
//    elsewhere, with the region's description, and
//  - the roles of the functions it defines that others call without their
//    body, and the bodiless user functions it calls (RoleImports.h), and
//  - the functions it binds to names Python calls (NativeBindings.h).
// Locations are absolute file paths and offsets, so summaries can be cached
// on disk and joined across translation units by the second phase
// (tool/driver/WholeProgram.h), which resolves the calls by USR.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_SUMMARY_H
#define CAPTURE_LINT_SUMMARY_H

#include "capture_lint/Analysis.h"
#include "capture_lint/HazardConditions.h"
#include "capture_lint/RoleImports.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace capture_lint {

/// A RawHazard without the AST.
struct SummaryHazard {
  std::string Kind; // api-call, legacy-arg, pending-read, branch, external
  std::string Check;
  std::string Entry; // the catalog entry (or declared entry) name
  std::string Api, Detail, Origin;
  bool KernelLaunch = false;
  bool StatusQuery = false;
  bool ThreadRelaxed = false;
  SummaryLoc Loc, CallSite;
  std::vector<SummaryNote> Chain, Extra;
  std::vector<std::string> Through;
  /// Kind "overrides": the overrides the TU followed itself.
  std::vector<std::string> Followed;
  /// Kind "external": constants and own parameters the call passes on
  /// (RawHazard::ConstantArgs, PassedParams).
  std::vector<std::pair<unsigned, int64_t>> ConstantArgs;
  std::vector<std::pair<unsigned, unsigned>> PassedParams;
  /// The function's parameter values that do not reach this hazard.
  std::vector<ParamCondition> When;
};

struct SummaryRegion {
  std::string BeginApi; // the catalog begin call ("" when unknown)
  std::string Mode;     // global, thread_local, relaxed, unknown
  std::string Stream;
  std::string Headline; // the region's first note
  SummaryLoc BeginLoc;
  std::vector<SummaryNote> Origin;
  SummaryLoc End; // the last end, when it is ended where it begins
};

struct SummaryUse {
  SummaryRegion Region;
  SummaryHazard Call; // Kind "external"
  /// Between the call and its callee's body, for a call from Python into
  /// the C++ function a name is bound to: where it is bound. Not kept in
  /// summaries (the join that makes such uses runs after they are read).
  std::vector<SummaryNote> Bridge;
};

struct SummaryFunction {
  std::string Usr, Name;
  std::vector<SummaryHazard> Hazards;
  /// For a method: the USRs of every method it overrides (up the
  /// hierarchy), so virtual calls in other files reach it.
  std::vector<std::string> Overrides;
};

/// A function Python calls by name (NativeBindings.h).
struct SummaryBinding {
  std::string Key; // "torch.ops.NS.OP", "MODULE.NAME"
  std::string Usr;
  std::string Name; // "" for a lambda written at the binding
  SummaryLoc Loc;   // the registration
  std::string How;  // "TORCH_LIBRARY_IMPL(myext, CUDA)"
  std::string DispatchKey;
};

struct TuSummary {
  std::vector<SummaryFunction> Functions;
  /// Functions of this TU that Python code calls by a name.
  std::vector<SummaryBinding> Bindings;
  std::vector<SummaryUse> Uses;
  /// Roles of externally visible functions defined here.
  std::vector<SummaryRole> Roles;
  /// USRs of the user functions called here whose bodies this TU lacks.
  std::vector<std::string> Bodiless;
};

/// Summarises a parsed translation unit with the analyzer that found its
/// findings (one analysis per TU), which must record external calls
/// (AnalysisOptions::RecordExternalCalls). \p Directory makes relative file
/// names absolute (the compile command's directory).
TuSummary summarizeTranslationUnit(CaptureAnalyzer &Analyzer,
                                   llvm::StringRef Directory);

/// The same with an analyzer of its own, for a TU whose findings are not
/// wanted.
TuSummary summarizeTranslationUnit(clang::ASTContext &Ctx, const Catalog &Cat,
                                   AnalysisOptions Opts,
                                   llvm::StringRef Directory);

nlohmann::json toJson(const TuSummary &S);
/// Throws nlohmann::json::exception on a malformed document.
TuSummary tuSummaryFromJson(const nlohmann::json &J);
nlohmann::json toJson(const SummaryRole &R);
/// Throws nlohmann::json::exception on a malformed document.
SummaryRole summaryRoleFromJson(const nlohmann::json &J);

/// Rebuilds the hazard and region of a summary for describeHazard(); the
/// entries come from \p Cat (or the declared entries). False when the
/// catalog does not know the entry any more.
bool toRawHazard(const SummaryHazard &S, const Catalog &Cat, RawHazard &Out);
CaptureRegion toCaptureRegion(const SummaryRegion &S, const Catalog &Cat);

} // namespace capture_lint

#endif // CAPTURE_LINT_SUMMARY_H
