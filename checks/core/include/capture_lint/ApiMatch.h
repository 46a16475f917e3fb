//===- ApiMatch.h - Matching calls against catalog entries ------*- C++ -*-===//
//
// A call matches a catalog entry when its callee's catalog name (or one of
// the entry's variants) is the entry's name and the entry's argument
// condition (when_arg) holds. Copies carry extra knowledge: which argument is
// the destination and whether the copy goes from the device to the host.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_APIMATCH_H
#define CAPTURE_LINT_APIMATCH_H

#include "capture_lint/Catalog.h"

namespace clang {
class ASTContext;
class CallExpr;
class ValueDecl;
} // namespace clang

namespace capture_lint {

/// The catalog entry \p Call matches, or null.
const ApiEntry *matchApi(const clang::CallExpr *Call, const Catalog &Cat);

/// True when a copy the catalog describes goes from the device to the host:
/// its kind argument is the constant cudaMemcpyDeviceToHost /
/// hipMemcpyDeviceToHost (2), or it has a destination but no kind argument
/// (cuMemcpyDtoHAsync, hipMemcpyDtoHAsync).
bool copiesDeviceToHost(const clang::CallExpr *Call, const ApiEntry &Entry,
                        const clang::ASTContext &Ctx);

/// The host variable (or member of this) a device-to-host copy writes.
const clang::ValueDecl *deviceToHostDestination(const clang::CallExpr *Call,
                                                const ApiEntry &Entry,
                                                const clang::ASTContext &Ctx);

} // namespace capture_lint

#endif // CAPTURE_LINT_APIMATCH_H
