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
// `if (is_capturing(s)) return;`), bool variables, locals or members,
// that keep a guard's answer (`bool capturing = st != None;`), and capture
// flags, bools a function beginning a capture sets (`capturing_ = true;`,
// RoleOracle::isCaptureFlag).
// What a guard is about: guardStream() gives the key of the stream a
// condition's query asked about (the region finder ignores a guard on
// another stream than the capturing one), and localsRead() the local status
// and bool variables it reads (a local written before the capture began
// holds a stale answer, and the region finder ignores it).
// Simplifying assumption: a status variable is not reassigned between the
// query and the branch other than by a query.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_GUARDS_H
#define CAPTURE_LINT_GUARDS_H

#include "capture_lint/Catalog.h"
#include "capture_lint/FunctionRoles.h"
#include "clang/AST/OperationKinds.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class Stmt;
class ValueDecl;
} // namespace clang

namespace capture_lint {

/// The key (streamKey) of the stream a guard call or capture predicate call
/// asks about: its first argument of a stream type; empty when none.
std::string queriedStream(const clang::CallExpr *Call);

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

  /// The key (streamKey) of the stream the guard in \p Cond asks about;
  /// empty when unknown (a query of the current stream, a member status).
  std::string guardStream(const clang::Expr *Cond) const;

  /// The local status and bool variables \p Cond reads as a guard.
  llvm::SmallVector<const clang::ValueDecl *, 2>
  localsRead(const clang::Expr *Cond) const;

  /// Whether \p V is a local status or bool variable holding a guard's
  /// answer (written by a query, or from a guard condition).
  bool isLocalGuardVariable(const clang::ValueDecl *V) const;

private:
  /// The guard behind a status operand, if \p E is one: a status variable
  /// or a guard call returning the status.
  const GuardApi *statusOperand(const clang::Expr *E) const;
  /// `status == None` and the like: \p L a status, \p R one of its values.
  std::optional<bool> compareStatus(const clang::Expr *L, const clang::Expr *R,
                                    clang::BinaryOperatorKind Op) const;
  /// A comparison of a status with a value, either way round.
  std::optional<bool> statusComparison(const clang::Expr *Cond) const;
  /// A bool variable or capture flag \p Cond names.
  std::optional<bool> namedFlagNotCapturingWhen(const clang::Expr *Cond) const;
  bool isNoneValue(const clang::Expr *E, const GuardApi &G) const;
  /// Another enumerator of a status type (`cudaStreamCaptureStatusActive`).
  bool isOtherStatusValue(const clang::Expr *E, const GuardApi &G) const;

  const Catalog &Cat;
  const clang::ASTContext &Ctx;
  RoleOracle *Roles;
  llvm::DenseMap<const clang::ValueDecl *, const GuardApi *> StatusVars;
  /// The stream each status variable's query asked about (streamKey).
  llvm::DenseMap<const clang::ValueDecl *, std::string> StatusStreams;
  /// The stream each bool variable's guard asked about.
  llvm::DenseMap<const clang::ValueDecl *, std::string> BoolStreams;
  /// Bool variables holding a guard's answer: not capturing when true?
  llvm::DenseMap<const clang::ValueDecl *, bool> BoolVars;
};

} // namespace capture_lint

#endif // CAPTURE_LINT_GUARDS_H
