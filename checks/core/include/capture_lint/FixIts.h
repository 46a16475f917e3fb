//===- FixIts.h - Mechanical fixes for legacy-stream findings ---*- C++ -*-===//
//
// The one fix capture-lint applies by itself: passing the capturing stream to
// a call or kernel launch that uses the legacy default stream. A defaulted
// stream argument gets the stream inserted (with the defaults of any
// parameters before it spelled out); an explicit 0, nullptr, NULL or
// cudaStreamLegacy is replaced. No fix is offered when any location involved
// comes from a macro, or when the region's stream is not a plain expression.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_FIXITS_H
#define CAPTURE_LINT_FIXITS_H

#include "clang/Basic/Diagnostic.h"
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
} // namespace clang

namespace capture_lint {

/// Fix-its that make argument \p StreamIndex of \p Call (a runtime call, or
/// a kernel launch's configuration call) the expression \p Stream.
std::vector<clang::FixItHint> streamFixIts(const clang::CallExpr *Call,
                                           unsigned StreamIndex,
                                           llvm::StringRef Stream,
                                           const clang::ASTContext &Ctx);

} // namespace capture_lint

#endif // CAPTURE_LINT_FIXITS_H
