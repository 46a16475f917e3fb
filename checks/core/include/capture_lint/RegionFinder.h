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
// Simplifying assumptions:
//  - An end call matches a begin of the same group (cuda-stream, hip-stream,
//    torch-graph) unless both name their stream (or graph object) by
//    declarations and those differ.
//  - A function analysed as a callee of a region starts inside its caller's
//    region (bit 0); any end call closes that region.
//  - Paths are not pruned by other conditions (no path sensitivity).
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_REGIONFINDER_H
#define CAPTURE_LINT_REGIONFINDER_H

#include "capture_lint/Catalog.h"
#include "capture_lint/Guards.h"

#include "clang/Analysis/CFG.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <functional>
#include <memory>
#include <vector>

namespace capture_lint {

/// One capture region: a begin call and what is known about it.
struct CaptureRegion {
  const clang::CallExpr *Begin = nullptr;
  const RegionApi *Api = nullptr;
  CaptureMode Mode = CaptureMode::Global;
  std::string Stream;                        // as written ("stream", "graph")
  std::string Key;                           // see streamKey()
  std::vector<const clang::CallExpr *> Ends; // end calls that close it
};

/// The dataflow state at one program point.
struct FlowState {
  bool Reached = false;
  /// Bit i: region i may be active. In callee mode bit 0 is the caller's.
  llvm::SmallBitVector Active;
  /// Must-fact: every path here passed a "not capturing" guard.
  bool Guarded = false;
  /// Host variables written by a captured device-to-host async copy.
  llvm::SmallPtrSet<const clang::ValueDecl *, 4> PendingHostCopies;
  /// The copy call that wrote each pending variable (first seen).
  std::vector<std::pair<const clang::ValueDecl *, const clang::CallExpr *>>
      PendingCopyCalls;

  bool inRegion() const { return Reached && !Guarded && Active.any(); }
};

class RegionFinder {
public:
  /// \p CalleeMode: the function runs inside its caller's region.
  RegionFinder(const clang::Decl *D, const clang::Stmt *Body,
               clang::ASTContext &Ctx, const Catalog &Cat, bool CalleeMode);

  /// False when no CFG could be built (the body has errors).
  bool valid() const { return Cfg != nullptr; }

  /// The regions this function begins (in callee mode, index 0 is the
  /// caller's region and has no Begin).
  const std::vector<CaptureRegion> &regions() const { return Regions; }

  /// Calls \p Visit for every statement of the CFG, in order, with the state
  /// before it executes; for block terminators (if, for, while, switch, ?:)
  /// with the state at the end of the block.
  void forEachStatement(
      const std::function<void(const clang::Stmt *, const FlowState &,
                               bool IsTerminator)> &Visit) const;

  /// The catalog entry a call begins or ends a region with, if any.
  static const RegionApi *regionApiOf(const clang::CallExpr *Call,
                                      const Catalog &Cat);

private:
  void collectRegions();
  void transfer(const clang::Stmt *S, FlowState &State) const;
  void join(FlowState &Into, const FlowState &From) const;
  bool equal(const FlowState &A, const FlowState &B) const;
  void solve();

  clang::ASTContext &Ctx;
  const Catalog &Cat;
  bool CalleeMode;
  std::unique_ptr<clang::CFG> Cfg;
  GuardRecognizer Guards;
  /// Mutable: the end calls of each region are recorded while solving.
  mutable std::vector<CaptureRegion> Regions;
  std::vector<FlowState> BlockEntry; // indexed by block ID
};

/// The mode a begin call requests: its mode argument when that is a
/// constant, the catalog default when it is absent, Unknown otherwise.
CaptureMode modeOfBegin(const clang::CallExpr *Begin, const RegionApi &Api,
                        const clang::ASTContext &Ctx);

} // namespace capture_lint

#endif // CAPTURE_LINT_REGIONFINDER_H
