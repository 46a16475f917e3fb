//===- Guards.h - Recognise "is this stream capturing?" checks --*- C++ -*-===//
//
// Code often protects a synchronizing or allocating call with a capture
// status query:
//
//   cudaStreamCaptureStatus st;
//   cudaStreamIsCapturing(s, &st);
//   if (st == cudaStreamCaptureStatusNone) cudaStreamSynchronize(s);
//
// A GuardRecognizer scans one function body for the status variables that
// the catalog's guard calls write (or for guard calls used directly in a
// comparison) and tells, for a branch condition, on which side the stream is
// known not to be capturing. It also knows capture predicates (user
// functions whose result comes from such a query, see FunctionRoles.h:
// `if (is_capturing(s)) return;`) and bool variables, locals or members,
// that keep a guard's answer (`bool capturing = st != None;`).
// Simplifying assumptions: a status refers to the
// capture in question (the stream argument of the query is not compared with
// the region's stream), and a status variable is not reassigned between the
// query and the branch.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_GUARDS_H
#define CAPTURE_LINT_GUARDS_H

#include "capture_lint/Catalog.h"
#include "capture_lint/FunctionRoles.h"
#include "llvm/ADT/DenseMap.h"

namespace clang {
class ASTContext;
class Expr;
class Stmt;
class ValueDecl;
} // namespace clang

namespace capture_lint {

class GuardRecognizer {
public:
  GuardRecognizer(const Catalog &Cat, const clang::ASTContext &Ctx,
                  RoleOracle *Roles = nullptr)
      : Cat(Cat), Ctx(Ctx), Roles(Roles) {}

  /// Finds the status variables (locals, or members of this) written by
  /// guard calls in \p Body.
  void scan(const clang::Stmt *Body);

  /// For a branch condition: true when the stream is known not to be
  /// capturing on the branch taken when \p Cond is true, false when on the
  /// branch taken when it is false, nullopt when \p Cond is no guard.
  std::optional<bool> notCapturingWhen(const clang::Expr *Cond) const;

private:
  /// The guard behind a status operand, if \p E is one: a status variable
  /// or a guard call returning the status.
  const GuardApi *statusOperand(const clang::Expr *E) const;
  bool isNoneValue(const clang::Expr *E, const GuardApi &G) const;

  const Catalog &Cat;
  const clang::ASTContext &Ctx;
  RoleOracle *Roles;
  llvm::DenseMap<const clang::ValueDecl *, const GuardApi *> StatusVars;
  /// Bool variables holding a guard's answer: not capturing when true?
  llvm::DenseMap<const clang::ValueDecl *, bool> BoolVars;
};

} // namespace capture_lint

#endif // CAPTURE_LINT_GUARDS_H
