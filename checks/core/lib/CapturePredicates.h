//===- CapturePredicates.h - Functions that answer "capturing?" -*- C++ -*-===//
//
// A capture predicate returns whether a stream is capturing: a bool (or an
// int, in C APIs) whose every return is a guard condition, all one way
// (`return st != None;`), or
// a capture lookup, a pointer that is non-null only where a guard says the
// stream is capturing:
//
//   CaptureInfo *get_capture_info(cudaStream_t s) {
//     if (!g_captures.empty() && is_capturing(s))
//       return g_captures[id_of(s)];
//     return nullptr;
//   }
//
// so that `if (info) ... else cudaFree(p);` guards the else branch.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_CAPTUREPREDICATES_H
#define CAPTURE_LINT_CAPTUREPREDICATES_H

#include "capture_lint/Catalog.h"
#include "capture_lint/FunctionRoles.h"

#include <optional>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace capture_lint {

/// For a capture predicate or lookup: what it returns (true: non-null) while
/// the stream is capturing; nullopt for any other function.
std::optional<bool> capturePredicateSense(const clang::FunctionDecl *Def,
                                          const Catalog &Cat,
                                          clang::ASTContext &Ctx,
                                          RoleOracle *Roles);

} // namespace capture_lint

#endif // CAPTURE_LINT_CAPTUREPREDICATES_H
