//===- HazardScanner.h - Hazards of statements, following calls -*- C++ -*-===//
//
// What a statement does under capture, as RawHazards (Analysis.h), and what
// a user function reaches when it runs inside a caller's region. The scanner
// knows nothing of regions' modes or messages: CaptureAnalyzer decides which
// statements are inside a region and turns hazards into findings.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_HAZARDSCANNER_H
#define CAPTURE_LINT_HAZARDSCANNER_H

#include "CallTargets.h"
#include "RoleAnalyzer.h"

#include "capture_lint/Analysis.h"
#include "capture_lint/RegionFinder.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace capture_lint {

class ShapeTaint;
class FrozenValues;
class TuConstants;

/// The filter for a function that runs inside its caller's region: reached,
/// not guarded, and region 0 (the inherited one) still active.
bool runsInInheritedRegion(const FlowState &St);

class HazardScanner {
public:
  HazardScanner(clang::ASTContext &Ctx, const Catalog &Cat,
                const AnalysisOptions &Opts, RoleAnalyzer &Roles,
                TuConstants &Constants)
      : Ctx(Ctx), Cat(Cat), Opts(Opts), Roles(Roles), Constants(Constants),
        Targets(Ctx) {}

  /// Scans every statement of \p Fn whose state \p Inside accepts, and
  /// passes the hazards of each (when there are any) to \p Emit. \p Depth
  /// is how many calls below the region \p Fn runs (0: the region's own
  /// function).
  void scanStatements(
      const clang::FunctionDecl *Fn, const RegionFinder &RF, unsigned Depth,
      llvm::function_ref<bool(const FlowState &)> Inside,
      llvm::function_ref<void(const FlowState &, std::vector<RawHazard> &)>
          Emit,
      const ParamBindings *Bound = nullptr);

  /// What \p FD reaches when it runs inside a caller's region, \p Depth
  /// calls below it (memoized per function).
  const std::vector<RawHazard> &summary(const clang::FunctionDecl *FD,
                                        unsigned Depth,
                                        const ParamBindings &Bound = {});

  /// The constant arguments \p Call passes to \p Callee's integral and enum
  /// parameters, \p Caller making the call with \p CallerBound fixed.
  ParamBindings argumentBindings(const clang::CallExpr *Call,
                                 const clang::FunctionDecl *Callee,
                                 const clang::FunctionDecl *Caller,
                                 const ParamBindings *CallerBound);

private:
  /// Per-function context for scanning statements.
  struct Scope {
    const clang::FunctionDecl *Fn;
    const ShapeTaint &Taint;
    const llvm::DenseSet<const clang::CallExpr *> &ConfigCalls;
    /// Allocations in branches beside a stream-ordered one (KindDispatch.h).
    const llvm::DenseSet<const clang::CallExpr *> &BesideCapturedForm;
    unsigned Depth; // 0: the function that begins the region
    /// Constant arguments this function is analysed for (passed on).
    const ParamBindings *Bound = nullptr;
    /// Host state the region updates in this function.
    FrozenValues *Frozen = nullptr;
  };

  void scan(const clang::Stmt *S, const FlowState &St, bool IsTerminator,
            const Scope &Sc, std::vector<RawHazard> &Out);
  void scanBranch(const clang::Stmt *S, const Scope &Sc,
                  std::vector<RawHazard> &Out);
  void scanKernelLaunch(const clang::CUDAKernelCallExpr *K, const Scope &Sc,
                        std::vector<RawHazard> &Out);
  /// A call judged elsewhere: a launch's configuration, a region's begin or
  /// end, a wrapper's call of the callable it runs.
  bool analysedElsewhere(const clang::CallExpr *Call, const Scope &Sc);
  /// Follows the call's indirect targets (virtual calls, function
  /// pointers, held callables); true when they are exactly known.
  bool followIndirect(const clang::CallExpr *Call, const Scope &Sc,
                      std::vector<RawHazard> &Out);
  /// A call a function role or the catalog describes (true): scanned as
  /// such, never entered.
  bool scanListedCall(const clang::CallExpr *Call,
                      const clang::FunctionDecl *Callee, const Scope &Sc,
                      std::vector<RawHazard> &Out);
  void scanCall(const clang::CallExpr *Call, const Scope &Sc,
                std::vector<RawHazard> &Out);
  /// A call to catalog entry \p E (or to \p Callee, \p Declared to act as
  /// one): its own hazard and its stream argument's.
  void scanCatalogCall(const clang::CallExpr *Call,
                       const clang::FunctionDecl *Callee, const ApiEntry &E,
                       bool Declared, const Scope &Sc,
                       std::vector<RawHazard> &Out);
  /// An argument of work \p Call enqueues (\p Work: "kernel launch 'k'")
  /// that carries host state the region updates: frozen at capture.
  void scanFrozenArguments(const clang::CallExpr *Call, llvm::StringRef Work,
                           const Scope &Sc, std::vector<RawHazard> &Out);
  /// For a call (direct, or through a pointer) to \p Callee, a user function
  /// no analysed body defines: records an External hazard for the
  /// whole-program phase (when asked to). What the call is followed into
  /// here does not change.
  void recordExternal(const clang::FunctionDecl *Callee,
                      const clang::CallExpr *Call, const Scope &Sc,
                      std::vector<RawHazard> &Out);
  /// For a virtual call: records an Overrides hazard, so the whole-program
  /// phase follows the overrides other files define (those in \p Followed
  /// were followed here).
  void recordOverrides(const clang::CallExpr *Call,
                       const std::vector<const clang::FunctionDecl *> &Followed,
                       const Scope &Sc, std::vector<RawHazard> &Out);
  /// A capture-status query (cudaStreamIsCapturing) of the legacy stream.
  void scanStatusQuery(const clang::CallExpr *Call,
                       std::vector<RawHazard> &Out);
  /// Whether \p Fn makes \p Stream wait on an event (joins it into a
  /// capture forked from another stream).
  bool joinedInFunction(const clang::Expr *Stream,
                        const clang::FunctionDecl *Fn);
  /// The implicit destructor call of a local at the end of its scope.
  void scanDestructor(const clang::CFGAutomaticObjDtor &Dtor,
                      const FlowState &St, const Scope &Sc,
                      std::vector<RawHazard> &Out);
  void scanPendingRead(const clang::Stmt *S, const FlowState &St,
                       std::vector<RawHazard> &Out);
  /// Follows a call into \p Callee's body; \p Call, when given, supplies
  /// constant arguments the callee is analysed for.
  void descend(const clang::FunctionDecl *Callee, clang::SourceLocation At,
               const Scope &Sc, std::vector<RawHazard> &Out,
               const clang::CallExpr *Call = nullptr);
  /// Whether the TU calls one of C.AnyOf with \p Call's argument C.Index.
  bool calledInUnit(const clang::CallExpr *Call, const ArgCondition &C);

  clang::ASTContext &Ctx;
  const Catalog &Cat;
  const AnalysisOptions &Opts;
  RoleAnalyzer &Roles;
  TuConstants &Constants;
  CallTargets Targets;
  std::map<std::pair<const clang::FunctionDecl *, ParamBindings>,
           std::vector<RawHazard>>
      Summaries;
  llvm::SmallPtrSet<const clang::FunctionDecl *, 16> InProgress;
  /// In a region's own function: the facts of the region the statement
  /// being scanned runs in (PathFacts.h), for the calls it makes.
  const ParamBindings *RegionFacts = nullptr;
  std::map<std::string, std::set<std::string>> UnitCallKeys; // lazily
};

} // namespace capture_lint

#endif // CAPTURE_LINT_HAZARDSCANNER_H
