//===- Rules.h - One rule file per check ------------------------*- C++ -*-===//
//
// Each check's rule lives in its own file here and holds what the check
// decides (the hazard a statement or call has), what it says about it in a
// region's mode (severity, message parts) and the note at the hazard, and
// its fixes. The traversals call them: HazardScanner walks statements and
// follows calls, RegionFinder finds regions, CaptureAnalyzer (Analysis.cpp)
// puts hazards in regions, and describeHazard (HazardText.cpp) composes the
// message. A new check adds a file here and a row in
// checks/registry/Checks.def; a rule that reads a function's regions whole
// is a FunctionRule listed in FunctionRules below, which CaptureAnalyzer
// calls for every function with a region (scripts/add-check writes all
// three). A rule about single statements is called by the traversal that
// sees them (HazardScanner.cpp). The catalog
// decides what the three catalog checks report (CatalogCall.cpp); what a
// shape or a device value taints is ShapeTaint.cpp's work, which host
// state a region updates FrozenValues.cpp's.
//
//   capture-sync-call           CatalogCall.cpp
//   capture-host-read           CatalogCall.cpp, HostRead.cpp
//   capture-allocation          CatalogCall.cpp, Allocation.cpp
//   capture-legacy-stream       LegacyStream.cpp, LegacyStreamFixIts.cpp
//   capture-frozen-host-value   FrozenHostValue.cpp
//   capture-shape-branch        ShapeBranch.cpp
//   capture-unended-region      UnendedRegion.cpp
//   capture-unended-on-error    UnendedOnError.cpp, UnendedOnErrorFixIts.cpp
//   capture-rng-state           Python only (checks/python)
//   capture-unjoined-stream     UnjoinedStream.cpp
//   capture-collective          CatalogCall.cpp, Collective.cpp
//   capture-dangling-buffer     DanglingBuffer.cpp
//   capture-unchecked-end       UncheckedEnd.cpp
//   capture-host-side-effect    HostSideEffect.cpp
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_RULES_RULES_H
#define CAPTURE_LINT_RULES_RULES_H

#include "RuleText.h"

#include "capture_lint/Analysis.h"
#include "capture_lint/Catalog.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace clang {
class ASTContext;
class CallExpr;
class CUDAKernelCallExpr;
class Expr;
class FunctionDecl;
class Stmt;
} // namespace clang

namespace capture_lint {
struct FunctionRole;
class FrozenValues;
class ShapeTaint;
struct FlowState;
} // namespace capture_lint

namespace capture_lint::rules {

/// What a rule that reads a whole function is given: the function, its
/// regions, the catalog, and the role the program's analysis gave it (null
/// when it has none).
struct FunctionRuleInput {
  const clang::FunctionDecl *Def;
  const RegionFinder &RF;
  const Catalog &Cat;
  clang::ASTContext &Ctx;
  const FunctionRole *Own;
};
/// A rule over a function's regions, returning its findings.
using FunctionRule = std::vector<ClangFinding> (*)(const FunctionRuleInput &);

//--- capture-sync-call, capture-host-read, capture-allocation (CatalogCall)
/// The check that reports catalog entry \p E called as \p Call: its class's
/// owner in the registry, capture-host-read for a synchronous copy that
/// reads back to the host; none for a class no C++ check owns.
std::optional<CheckKind> catalogCallCheck(const ApiEntry &E,
                                          const clang::CallExpr *Call,
                                          const clang::ASTContext &Ctx);
/// The hazard of calling catalog entry \p E at \p Loc.
RawHazard catalogCall(const ApiEntry &E, CheckKind Check,
                      clang::SourceLocation Loc);
/// What the call does in \p R's mode (or the relaxed mode its thread
/// switched to), from the entry's behaviours.
Described describeCatalogCall(const RawHazard &H, const CaptureRegion &R);

//--- capture-host-read (HostRead)
/// A host read of memory a captured device-to-host copy fills (\p State
/// knows the pending copies at \p S).
std::optional<RawHazard> pendingHostRead(const clang::Stmt *S,
                                         const FlowState &State,
                                         const Catalog &Cat);
Described describePendingHostRead(const RawHazard &H);

//--- capture-allocation (Allocation)
/// Stream-ordered allocation given a stream that may not take part in the
/// capture: \p Stream is the argument, as written \p Spelled.
RawHazard otherStreamAllocation(const ApiEntry &E, clang::SourceLocation Loc,
                                std::string StreamKey, std::string Spelled);
Described describeOtherStreamAllocation(const RawHazard &H,
                                        const CaptureRegion &R);

//--- capture-legacy-stream (LegacyStream)
/// A <<<...>>> launch \p K on the legacy default stream.
std::optional<RawHazard> legacyStreamLaunch(const clang::CUDAKernelCallExpr *K,
                                            const Catalog &Cat,
                                            clang::ASTContext &Ctx);
/// Catalog entry \p E called as \p Call with \p Stream, its stream
/// argument, naming the legacy stream.
std::optional<RawHazard> legacyStreamArgument(const clang::CallExpr *Call,
                                              const ApiEntry &E,
                                              const clang::Expr *Stream,
                                              clang::ASTContext &Ctx);
/// A capture-status query (cudaStreamIsCapturing) of the legacy stream.
std::optional<RawHazard> legacyStreamQuery(const clang::CallExpr *Call,
                                           clang::ASTContext &Ctx);
Described describeLegacyStream(const RawHazard &H, const CaptureRegion &R);
/// The fixes and notes a legacy-stream finding gets (LegacyStreamFixIts).
void addLegacyStreamFixes(const RawHazard &H, const CaptureRegion &R,
                          bool ReachedThroughCall, ClangFinding &F,
                          const clang::ASTContext &Ctx);

//--- capture-frozen-host-value (FrozenHostValue)
/// Whether \p Call is given a stream handle (enqueues work whose
/// arguments the graph records).
bool passesStream(const clang::CallExpr *Call);
/// An argument of work \p Call enqueues (\p Work: "kernel launch 'k'")
/// carrying host state the region updates (\p Frozen).
std::optional<RawHazard> frozenArgument(const clang::CallExpr *Call,
                                        llvm::StringRef Work,
                                        FrozenValues &Frozen);
Described describeFrozenArgument(const RawHazard &H);

//--- capture-shape-branch (ShapeBranch)
/// A branch of \p S (if, switch, loops, ?:) whose condition depends on a
/// shape or a device value (\p Taint).
std::optional<RawHazard> shapeBranch(const clang::Stmt *S,
                                     const ShapeTaint &Taint);
Described describeShapeBranch(const RawHazard &H);

//--- capture-unended-region (UnendedRegion)
/// The message of a region that no path ends.
std::string unendedRegionMessage(const CaptureRegion &R,
                                 llvm::StringRef Function,
                                 llvm::StringRef EndName);
/// The end call of \p Api's group, of its own family when there is one
/// ("cudaStreamEndCapture" for cudaStreamBeginCapture).
std::string endCallName(const RegionApi &Api, const Catalog &Cat);

//--- capture-unended-on-error (UnendedOnError)
/// The regions of \p Def (found by \p RF) that some path ends and another
/// leaves the function with still open: by a `return`, the end of the body,
/// a `throw` or a call that throws instead of returning; one finding per
/// region, at its first such exit, with a note at each other one.
/// Not for a function that leaves its capture open on purpose (an opener),
/// one that pauses its caller's capture and resumes it, or main.
std::vector<ClangFinding> unendedOnError(const FunctionRuleInput &In);
/// The fix that ends \p R's capture before \p Ret, an exit of \p Def that
/// leaves it open, where the shape allows (UnendedOnErrorFixIts.cpp);
/// empty otherwise.
std::vector<clang::FixItHint> endOnPathFixIts(const CaptureRegion &R,
                                              const clang::ReturnStmt *Ret,
                                              const clang::FunctionDecl *Def,
                                              const Catalog &Cat,
                                              const clang::ASTContext &Ctx);

//--- capture-unjoined-stream (UnjoinedStream)
/// Streams forked into \p Def's captures and not joined back before the
/// capture ends, and work issued in them on streams never forked in.
std::vector<ClangFinding> unjoinedStreams(const FunctionRuleInput &In);

//--- capture-collective (Collective)
std::vector<ClangFinding> collective(const FunctionRuleInput &In);

//--- capture-dangling-buffer (DanglingBuffer)
std::vector<ClangFinding> danglingBuffer(const FunctionRuleInput &In);

//--- capture-unchecked-end (UncheckedEnd)
std::vector<ClangFinding> uncheckedEnd(const FunctionRuleInput &In);

//--- capture-host-side-effect (HostSideEffect)
std::vector<ClangFinding> hostSideEffect(const FunctionRuleInput &In);

/// The rules over whole functions, in the order their findings are reported.
// One per line, as scripts/add-check appends them.
// clang-format off
inline constexpr FunctionRule FunctionRules[] = {
    &unendedOnError,
    &unjoinedStreams,
    &collective,
    &danglingBuffer,
    &uncheckedEnd,
    &hostSideEffect,
};
// clang-format on

} // namespace capture_lint::rules

#endif // CAPTURE_LINT_RULES_RULES_H
