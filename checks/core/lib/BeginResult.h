//===- BeginResult.h - What a begin's result says ---------------*- C++ -*-===//
//
// A capture begins only where the begin's result may be success. These read
// what code does with a result: where it is stored, what a condition on it
// is when it is success, and what a converter of it (cutlass's
// check_cuda_status) returns then. RegionFinder uses them to end a region
// on the edge where its begin failed, and where a checked call succeeded
// that always fails under capture.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_BEGINRESULT_H
#define CAPTURE_LINT_BEGINRESULT_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <optional>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
class ParentMap;
class VarDecl;
} // namespace clang

namespace capture_lint {

/// Whether an expression is the result being followed (the call, or the
/// local it was stored in).
using IsResultFn = llvm::function_ref<bool(const clang::Expr *)>;

/// The local a call's result is stored in (`cudaError_t e = begin(...);`,
/// `e = begin(...);`), if any.
const clang::VarDecl *resultVariable(const clang::CallExpr *Call,
                                     const clang::ParentMap &PM);

/// The value \p Cond has when the result it tests is success (\p Success,
/// 0 for an error code), where \p Cond tests a result (as \p IsResult says)
/// in one of the shapes `result`, `result == K`, `result != K` for a
/// constant K, maybe negated, or passes it to a checking function whose
/// body ends in such a test; nullopt for any other condition.
std::optional<bool> valueAtSuccess(const clang::Expr *Cond, IsResultFn IsResult,
                                   const clang::ASTContext &Ctx,
                                   int64_t Success = 0);

/// What \p Conv, given a value that is \p Success at a begun capture as its
/// argument \p Arg, returns then, when its body says it with a constant:
/// `if (e != cudaSuccess) { ...; return kError; } return kSuccess;` or
/// `return e == cudaSuccess ? kSuccess : kError;`.
std::optional<int64_t> convertedSuccess(const clang::FunctionDecl *Conv,
                                        unsigned Arg, int64_t Success,
                                        const clang::ASTContext &Ctx);

} // namespace capture_lint

#endif // CAPTURE_LINT_BEGINRESULT_H
