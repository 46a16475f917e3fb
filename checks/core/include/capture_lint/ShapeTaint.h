//===- ShapeTaint.h - Values that come from shapes or the device -*- C++ -*-=//
//
// capture-shape-branch needs to know whether a branch condition depends on a
// tensor shape query (size, sizes, numel, dim, ...) or on a value read back
// from the device (item(), a device-to-host copy's destination), directly or
// through local variables, or through a helper's return value. ShapeTaint
// computes, flow-insensitively over one function body, which local variables
// hold such values and where they got them, then answers for any expression
// what it depends on.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_SHAPETAINT_H
#define CAPTURE_LINT_SHAPETAINT_H

#include "capture_lint/Analysis.h"

#include "llvm/ADT/DenseSet.h"

namespace capture_lint {

class ShapeTaint {
public:
  struct Source {
    std::string What;         // "'at::TensorBase::size'", "'n'"
    bool DeviceValue = false; // a device value rather than a shape
    /// For a variable: where it got its value, and from what.
    clang::SourceLocation VarLoc;
    std::string VarOrigin;
  };

  /// \p Depth: how many helper calls deep this body is (a helper's return
  /// value is looked into up to a few calls down). \p GuardedCalls, when
  /// given, holds the calls under a "not capturing" guard: a device-to-host
  /// copy there reads nothing back under capture.
  ShapeTaint(const clang::Stmt *Body, const clang::ASTContext &Ctx,
             const Catalog &Cat, const AnalysisOptions &Opts,
             unsigned Depth = 0,
             const llvm::DenseSet<const clang::Stmt *> *GuardedCalls = nullptr);

  /// What \p E depends on, or nullopt when it depends on neither.
  std::optional<Source> dependency(const clang::Expr *E) const;

private:
  struct VarTaint {
    std::string Origin; // the direct source's name
    bool DeviceValue = false;
    clang::SourceLocation Loc;
  };
  std::optional<Source> directSource(const clang::Expr *E) const;
  bool isShapeCall(const clang::CallExpr *Call) const;
  /// A user helper whose return value comes from a shape or a device value
  /// in its own body (`int rows(const Tensor &t) { return t.size(0); }`).
  std::optional<Source> returnSource(const clang::FunctionDecl *FD) const;

  unsigned Depth;
  mutable llvm::DenseMap<const clang::FunctionDecl *, std::optional<Source>>
      ReturnSources;

  const clang::ASTContext &Ctx;
  const Catalog &Cat;
  const AnalysisOptions &Opts;
  llvm::DenseMap<const clang::VarDecl *, VarTaint> Tainted;
  /// Destinations of device-to-host copies, and the (first) copy call.
  llvm::DenseMap<const clang::ValueDecl *, clang::SourceLocation>
      DeviceCopyDestinations;
};

} // namespace capture_lint

#endif // CAPTURE_LINT_SHAPETAINT_H
