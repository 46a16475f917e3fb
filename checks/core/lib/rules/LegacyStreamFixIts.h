//===- LegacyStreamFixIts.h - Fixes of legacy-stream findings --*- C++ -*-===//
//
// The fix of capture-legacy-stream: passing the capturing stream to a call or
// kernel launch that uses the legacy default stream. A defaulted
// stream argument gets the stream inserted (with the defaults of any
// parameters before it spelled out); an explicit 0, nullptr, NULL or
// cudaStreamLegacy is replaced. No fix is offered when any location involved
// comes from a macro, or when the region's stream is not a plain expression.
// Where the call sits in a function the region calls, no mechanical fix is
// right (the stream's name means nothing there); a note says which
// parameter to use or add instead.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_RULES_LEGACYSTREAMFIXITS_H
#define CAPTURE_LINT_RULES_LEGACYSTREAMFIXITS_H

#include "capture_lint/FunctionRoles.h"

#include "clang/Basic/Diagnostic.h"
#include <optional>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class FieldDecl;
} // namespace clang

namespace capture_lint {

/// Fix-its that make argument \p StreamIndex of \p Call (a runtime call, or
/// a kernel launch's configuration call) the expression \p Stream.
std::vector<clang::FixItHint> streamFixIts(const clang::CallExpr *Call,
                                           unsigned StreamIndex,
                                           llvm::StringRef Stream,
                                           const clang::ASTContext &Ctx);

/// For a legacy-stream \p Call inside a function that a region calls: a
/// note at that function saying how to reach the capturing stream \p
/// Stream: a member function of the class whose member \p CapturingMember
/// captures launches on that member; otherwise on its stream parameter if it
/// has one, else on one it adds.
std::optional<DiagNote>
calleeStreamNote(const clang::CallExpr *Call, llvm::StringRef Stream,
                 const clang::FieldDecl *CapturingMember,
                 llvm::StringRef StreamType, const clang::ASTContext &Ctx);

} // namespace capture_lint

#endif // CAPTURE_LINT_RULES_LEGACYSTREAMFIXITS_H
