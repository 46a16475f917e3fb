//===- KindDispatch.h - Allocations in a kind switch --------- -*- C++ -*-===//
//
// Allocator wrappers dispatch on the kind of memory they were given
// (MatX's deallocate_internal: `switch (kind) { case DEVICE: cudaFree(p);
// ... case ASYNC: cudaFreeAsync(p, s); }`). When one branch of a switch or
// if/else uses the stream-ordered form, which capture records, the other
// branches serve other kinds of memory: which one runs depends on data the
// analysis cannot see, and the code evidently knows the capturable way. The
// allocations in those sibling branches are collected here so that calls
// followed into such a wrapper do not report them.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_KINDDISPATCH_H
#define CAPTURE_LINT_KINDDISPATCH_H

#include "capture_lint/Catalog.h"

#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseSet.h"

namespace capture_lint {

/// The allocation calls in \p Body that sit in a branch whose sibling
/// branch (of the same switch or if/else) makes a captured stream-ordered
/// allocation or free.
llvm::DenseSet<const clang::CallExpr *>
allocationsBesideCapturedForm(const clang::Stmt *Body, const Catalog &Cat);

} // namespace capture_lint

#endif // CAPTURE_LINT_KINDDISPATCH_H
