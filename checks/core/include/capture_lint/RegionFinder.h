//===- RegionFinder.h - Capture regions on the CFG --------------*- C++ -*-===//
//
// A statement is inside a capture region when some path from a begin call
// (cudaStreamBeginCapture, hipStreamBeginCapture, CUDAGraph::capture_begin,
// ... as the catalog lists them) reaches it without passing a matching end
// call. This is a forward "may" dataflow over the function's CFG, so early
// returns, ends inside branches, begin/end pairs inside loops and captures
// that end on one path only all come out as the paths say.
//
// Alongside, the same pass computes a "must" fact: the stream is known not to
// be capturing, because every path to the statement went through the
// not-capturing side of a capture-status guard (see Guards.h). Guarded
// statements are not inside any region.
//
// Calls to user functions with a role (FunctionRoles.h) count as well: a
// call to an opener (or the construction of a RAII guard whose constructor
// opens) begins a region, a call to a closer (or the guard's destructor at
// the end of its scope) ends one.
//
// Shapes of real code that get a little path sensitivity:
//  - a begin under `if (C)` (also inside a loop under it, one begin per
//    stream of an array) ends its region on every edge where the same
//    condition C (same text) is false: `if (use_graph) begin(); ...
//    if (use_graph) end();` leaves no region after the second test;
//  - a region is closed when a loop whose body ends it exits ("begin in the
//    first iteration, end in the last", or a loop of ends over streams);
//  - a begin in statically dead code (the copy a test macro keeps in
//    `false && (x)`) begins nothing, nor does a begin whose result a test
//    compares with an expected error (ExpectedFailure.h); an end ends the
//    capture even when a test expects it to fail (904, unjoined);
//  - the stream's life bounds its captures: cudaStreamDestroy (catalog
//    role "destroy") or the end of the scope of the object holding it;
//  - a capture-status guard counts only when its answer was computed after
//    the begin and asks about the capturing stream (Guards.h);
//  - in a callee analysed for constant arguments (ParamBindings), branches
//    on those parameters take only the side the constants select; so do
//    branches on a local initialised with a constant and never written
//    (the region's own mode variable, a debug flag).
//
// The thread's capture mode: cudaThreadExchangeStreamCaptureMode with a
// variable holding Relaxed, or the construction of a RAII object whose
// constructor makes that exchange with Relaxed (PyTorch's
// CUDAStreamCaptureModeGuard), switches the thread to relaxed mode until the
// next exchange on that variable or the object's destruction
// (FlowState::ThreadRelaxed).
//
// Simplifying assumptions:
//  - An end call matches a begin of the same group (cuda-stream, hip-stream,
//    torch-graph) unless both name their stream (or graph object) by
//    declarations and those differ. An opener's region and a direct end
//    (or a direct begin and a closer) always match.
//  - A function analysed as a callee of a region starts inside its caller's
//    region (bit 0); any end call closes that region.
//  - A correlated condition's variables are not written in between, and a
//    condition around a loop of begins holds for every stream in it.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_REGIONFINDER_H
#define CAPTURE_LINT_REGIONFINDER_H

#include "capture_lint/Catalog.h"
#include "capture_lint/FunctionRoles.h"
#include "capture_lint/Guards.h"
#include "capture_lint/PathFacts.h"

#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <functional>
#include <memory>
#include <vector>

namespace clang {
class ParentMap;
class ParmVarDecl;
} // namespace clang

namespace capture_lint {

/// One capture region: a begin call and what is known about it.
struct CaptureRegion {
  /// The catalog begin call, when the region begins with one.
  const clang::CallExpr *Begin = nullptr;
  /// The statement that begins it here: Begin, a call to an opener, or the
  /// construction of a RAII guard. Null for a callee's inherited region.
  const clang::Stmt *BeginStmt = nullptr;
  const RegionApi *Api = nullptr;
  CaptureMode Mode = CaptureMode::Global;
  /// The function's parameter the mode is given in, when not a constant
  /// here (an opener's callers decide it: OpenedCapture::ModeParam).
  std::optional<unsigned> ModeParam;
  std::string Stream; // as written ("stream", "graph")
  std::string Key;    // see streamKey(); a closer on the same key ends it
  /// The key of the stream the work is captured from: Key for a catalog
  /// begin; for one begun by an opener, the caller's argument for the
  /// opener's stream parameter; empty when not known here.
  std::string StreamKey;
  /// The function's parameter that StreamKey names, if it names one.
  std::optional<unsigned> StreamParam;
  /// The value that says whether the capture began: the begin call, a
  /// call to an opener that returns a status, or a converter's call around
  /// either (`check_status(cudaStreamBeginCapture(...))`); the local it is
  /// stored in, if any; and its value where the capture began.
  const clang::Expr *Result = nullptr;
  const clang::VarDecl *ResultVar = nullptr;
  int64_t SuccessValue = 0;
  /// The variable holding the stream (or the object owning it), if any.
  const clang::ValueDecl *StreamVar = nullptr;
  /// The member of `this` the capture is on (`stream_` in a method), when
  /// the stream is exactly that member.
  const clang::FieldDecl *ThisMember = nullptr;
  /// Where the capture begins here, and for a region begun by an opener or
  /// for a body that runs under a wrapper's capture, the first note's text
  /// and the notes that lead to the catalog begin call.
  clang::SourceLocation BeginLoc;
  std::string Headline;
  std::vector<DiagNote> Origin;
  bool ViaRole = false;
  const clang::VarDecl *Guard = nullptr; // a RAII guard object
  /// `if (C)` around the begin: C's text and the branch taken.
  std::string CondKey;
  bool CondValue = true;
  /// What holds wherever the region runs (PathFacts.h): the condition
  /// around the begin, the predicate a capture flag came from, validation
  /// calls before it.
  ParamBindings Facts;
  std::vector<clang::SourceLocation> Ends; // where it is closed
  /// The ends by a closer that also launches the graph (a guard whose
  /// destructor ends, instantiates and launches it): launches there.
  std::vector<clang::SourceLocation> LaunchingEnds;
  /// Some path reaches the begin (a begin in statically dead code, such as
  /// the copy a test macro keeps in `false && (x)`, begins nothing).
  bool Reached = false;
};

/// The dataflow state at one program point.
struct FlowState {
  bool Reached = false;
  /// Bit i: region i may be active. In callee mode bit 0 is the caller's.
  llvm::SmallBitVector Active;
  /// Must-fact: every path here passed a "not capturing" guard.
  bool Guarded = false;
  /// May-fact (callee mode): some path here ended the caller's region.
  bool EndedInherited = false;
  /// Must-fact: the thread was switched to relaxed capture mode.
  bool ThreadRelaxed = false;
  const clang::ValueDecl *RelaxedBy = nullptr;
  /// Must-fact: local status/bool variables holding a guard's answer that
  /// was computed since the last begin (older answers are stale), with the
  /// key of the stream the answer is about (empty: unknown).
  std::vector<std::pair<const clang::ValueDecl *, std::string>> FreshGuards;
  const std::string *freshGuard(const clang::ValueDecl *V) const {
    for (const auto &P : FreshGuards)
      if (P.first == V)
        return &P.second;
    return nullptr;
  }
  void setFreshGuard(const clang::ValueDecl *V, std::string Key) {
    for (auto &P : FreshGuards)
      if (P.first == V) {
        P.second = std::move(Key);
        return;
      }
    FreshGuards.push_back({V, std::move(Key)});
  }
  /// Host variables written by a captured device-to-host async copy.
  llvm::SmallPtrSet<const clang::ValueDecl *, 4> PendingHostCopies;
  /// The copy call that wrote each pending variable (first seen).
  std::vector<std::pair<const clang::ValueDecl *, const clang::CallExpr *>>
      PendingCopyCalls;

  bool inRegion() const { return Reached && !Guarded && Active.any(); }
};

class RegionFinder {
public:
  /// \p CalleeMode: the function runs inside its caller's region, described
  /// by \p Inherited when given. \p Roles: where user functions' roles come
  /// from (none: only catalog calls begin and end regions).
  RegionFinder(const clang::Decl *D, const clang::Stmt *Body,
               clang::ASTContext &Ctx, const Catalog &Cat, bool CalleeMode,
               RoleOracle *Roles = nullptr,
               const CaptureRegion *Inherited = nullptr,
               const ParamBindings *Bindings = nullptr);

  /// False when no CFG could be built (the body has errors).
  bool valid() const { return Cfg != nullptr; }

  /// The regions this function begins (in callee mode, index 0 is the
  /// caller's region and has no Begin).
  const std::vector<CaptureRegion> &regions() const { return Regions; }

  /// Calls \p Visit for every statement of the CFG, in order, with the state
  /// before it executes; for block terminators (if, for, while, switch, ?:)
  /// with the state at the end of the block.
  /// \p VisitDtor, when given, is called for each implicit destructor call
  /// of a local (at the end of its scope), with the state before it.
  void forEachStatement(
      const std::function<void(const clang::Stmt *, const FlowState &,
                               bool IsTerminator)> &Visit,
      const std::function<void(const clang::CFGAutomaticObjDtor &,
                               const FlowState &)> &VisitDtor = nullptr) const;

  /// A way out of the function that returns normally: a `return` (At is
  /// the ReturnStmt) or the end of the body (At is null).
  struct NormalExit {
    const clang::ReturnStmt *At = nullptr;
  };
  /// Calls \p Visit for every normal exit some path reaches, with the state
  /// as the function leaves there (after the destructors of the scopes it
  /// leaves). Exits by exception (a throw, a call that does not return) are
  /// not among them: the CFG has no edge for their unwinding.
  void forEachNormalExit(
      const std::function<void(const NormalExit &, const FlowState &)> &Visit)
      const;

  /// The state at the normal exit written last in the function (its final
  /// `return`, or the end of its body), when a path reaches one: what the
  /// function leaves its callers on its main path. An earlier return is
  /// typically an error path, and so is one that returns an error status
  /// (a nonzero enumerator), wherever it is written.
  std::optional<FlowState> lastExitState() const;

  /// Whether unwinding the stack past region \p I's function may end it: a
  /// local is destroyed whose destructor closes a capture (a RAII guard), or
  /// that owns the region's stream.
  bool unwindingMayEnd(unsigned I) const;

  /// The statements of the blocks no path reaches (past a condition the
  /// constant arguments decide, or after a return).
  llvm::SmallPtrSet<const clang::Stmt *, 16> unreachedStatements() const;

  /// The state where the function returns.
  const FlowState &exitState() const;

  /// In callee mode: the end call that closed the caller's region, if any.
  const RegionApi *inheritedClosedBy() const { return InheritedClosedBy; }
  /// Whether a closer that ended the caller's capture here also launched
  /// the graph (a held callable that ends and launches).
  bool inheritedCloseLaunches() const { return InheritedCloseLaunches; }

  /// The catalog entry a call begins or ends a region with, if any.
  static const RegionApi *regionApiOf(const clang::CallExpr *Call,
                                      const Catalog &Cat);

private:
  void collectRegions(const clang::Stmt *Body);
  /// Which variable each constructor call initialises (RAII guards).
  void mapConstructedVars();
  /// A begin, an end, an opener or a closer at \p E, if it is one.
  void collectSite(const clang::CFGElement &E, clang::ParentMap &PM,
                   const clang::Stmt *Body);
  void collectCall(const clang::CallExpr *Call, clang::ParentMap &PM,
                   const clang::Stmt *Body);
  /// The region a catalog begin starts.
  void catalogBegin(const clang::CallExpr *Call, const RegionApi &Api,
                    clang::ParentMap &PM, const clang::Stmt *Body);
  /// The condition \p R's begin runs under, and the facts it establishes.
  void addBeginConditions(CaptureRegion &R, clang::ParentMap &PM,
                          const clang::Stmt *Body);
  void addRoleRegion(const clang::Stmt *S, const OpenedCapture &Opened,
                     const clang::Expr *Object, const clang::VarDecl *Guard);
  /// Sets \p R's result from \p Call, whose value is \p Success where the
  /// capture began, seeing through converters of that value.
  void setResult(CaptureRegion &R, const clang::CallExpr *Call, int64_t Success,
                 const clang::ParentMap &PM) const;
  void transfer(const clang::CFGElement &E, FlowState &State) const;
  /// The closer a local object's destruction is: its destructor's role, or
  /// the callables a guard was built with (RoleOracle::guardCloser).
  const FunctionRole *destructorCloser(const clang::VarDecl *VD) const;
  void transferCall(const clang::CallExpr *Call, FlowState &State) const;
  /// Ends the regions capturing \p Stream: it is destroyed (or the object
  /// owning it goes out of scope and destroys it), so the capture cannot go
  /// on past here.
  void endStreamLife(FlowState &State, const clang::ValueDecl *Stream) const;
  /// Whether destroying \p Holder destroys the stream it holds: its class's
  /// destructor calls the catalog's destroy API (a vector of raw handles
  /// does not).
  bool ownsStream(const clang::ValueDecl *Holder) const;
  mutable llvm::DenseMap<const clang::CXXRecordDecl *, bool> StreamOwners;
  /// Makes the regions \p Begin starts active.
  void activate(const clang::Stmt *Begin, FlowState &State) const;
  void close(FlowState &State, const RegionApi *Api, const std::string &Key,
             bool KeyFromRole, const clang::VarDecl *Guard,
             clang::SourceLocation At, bool Launches = false) const;
  /// Whether a capture-status guard in \p Cond speaks for the regions
  /// active here: its answer is fresh and about their stream.
  bool guardApplies(const clang::Expr *Cond, const FlowState &State) const;
  /// On the edge where the guard \p Cond says the stream is not capturing:
  /// the active regions of that stream (of any, when it is unknown) end.
  void endGuardedRegions(const clang::Expr *Cond, FlowState &State) const;
  /// The stream a guard expression's answer is about, from the state for
  /// local status and bool variables.
  std::string answerStream(const clang::Expr *E, const FlowState &State) const;
  void refineEdge(const clang::CFGBlock &B, unsigned SuccIndex,
                  FlowState &State) const;
  /// On a branch's edge: what capture-status guards and first-use tests
  /// say of it.
  void applyGuards(const clang::Expr *Cond, bool TrueEdge,
                   FlowState &State) const;
  /// Ends the regions the edge rules out: by what holds wherever they run,
  /// by a failed begin, by a checked call that succeeded.
  void endRegionsRuledOut(const clang::Expr *Cond, bool TrueEdge,
                          FlowState &State) const;
  /// Ends the regions begun under the other value of the same condition,
  /// and those a loop's last iteration ends, on leaving the loop.
  void endRegionsOnEdge(const clang::CFGBlock &B, const clang::Expr *Cond,
                        bool TrueEdge, FlowState &State) const;
  void join(FlowState &Into, const FlowState &From) const;
  bool equal(const FlowState &A, const FlowState &B) const;
  void solve();

  /// Whether \p Cond, taken the \p CondTrue way, says \p R's begin failed
  /// (`if (e != cudaSuccess)` after `e = cudaStreamBeginCapture(...)`).
  /// Facts that validation calls before \p Begin (in the blocks around it)
  /// prove, given the \p Facts known so far (PathFacts.h).
  void addValidationFactsBefore(const clang::Stmt *Begin,
                                const clang::ParentMap &PM,
                                ParamBindings &Facts) const;
  /// Region \p I is not active past \p At on this path, and counts as
  /// ended there (no capture is left open).
  void endOnPath(unsigned I, FlowState &State, clang::SourceLocation At) const;
  /// On the edge where \p Cond says a checked call succeeded
  /// (`CHECK(cudaDeviceSynchronize());`) and that call always fails under a
  /// region's capture (a sync or allocation its mode refuses): that region
  /// is not active there (the path runs only without it).
  void endWhereCheckedCallSucceeds(const clang::Expr *Cond, bool CondTrue,
                                   FlowState &State) const;
  bool beginFailedOn(const CaptureRegion &R, const clang::Expr *Cond,
                     bool CondTrue) const;
  /// The value of \p Cond under the parameter bindings, when they decide it.
  std::optional<int64_t> boundValue(const clang::Expr *Cond) const;

  clang::ASTContext &Ctx;
  const Catalog &Cat;
  bool CalleeMode;
  ParamBindings Bindings;
  RoleOracle *Roles;
  std::unique_ptr<clang::CFG> Cfg;
  const clang::Stmt *FnBody = nullptr;
  /// What a branch condition says, computed once per condition (the
  /// dataflow visits each edge several times).
  struct ConditionFacts {
    std::optional<bool> FirstUseWhenTrue; // StaticState.h
    std::string Key;                      // conditionKey, when HasKey
    bool KeyValue = true;
    bool HasKey = false;
  };
  ConditionFacts &factsOf(const clang::Expr *Cond, bool WithKey) const;
  mutable llvm::DenseMap<const clang::Expr *, ConditionFacts> Conditions;
  /// regionApiOf, once per call.
  const RegionApi *cachedRegionApi(const clang::CallExpr *Call) const;
  mutable llvm::DenseMap<const clang::CallExpr *, const RegionApi *> CallApis;
  /// Locals initialised with a constant and never written (boundValue).
  mutable llvm::DenseMap<const clang::VarDecl *, std::optional<int64_t>>
      LocalConstants;
  GuardRecognizer Guards;
  /// Ends (and closer calls) by location, for the loop-exit rule.
  struct EndSite {
    clang::SourceLocation Loc;
    std::string Group;
  };
  std::vector<EndSite> EndSites;
  /// Which variable each constructor call initialises (RAII guards).
  llvm::DenseMap<const clang::Stmt *, const clang::VarDecl *> ConstructedVar;
  /// Begin and end calls whose result a test expects to be an error.
  /// Mutable: the end calls of each region are recorded while solving.
  mutable std::vector<CaptureRegion> Regions;
  std::vector<FlowState> BlockEntry; // indexed by block ID
  /// Mutable: recorded while solving, like the regions' end calls.
  mutable const RegionApi *InheritedClosedBy = nullptr;
  mutable bool InheritedCloseLaunches = false;
};

/// The mode a begin call requests: its mode argument when that is a
/// constant (or a local of \p Body holding one), the catalog default when it
/// is absent, Unknown otherwise.
CaptureMode modeOfBegin(const clang::CallExpr *Begin, const RegionApi &Api,
                        const clang::ASTContext &Ctx,
                        const clang::Stmt *Body = nullptr);

} // namespace capture_lint

#endif // CAPTURE_LINT_REGIONFINDER_H
