//===- CallTargets.h - Which functions an indirect call may run -*- C++ -*-===//
//
// Calls without a direct callee still run known code more often than not:
//  - a virtual call runs the method or any override visible in the TU;
//  - a call through a function pointer runs what the pointer was given: a
//    local or global initialised or assigned with a function, a member
//    assigned one (in a constructor's initializers or anywhere in the TU),
//    an element of a table initialised with functions;
//  - a call of a std::function (or other callable object) held in a member
//    or local runs the lambdas and functions assigned to it;
//  - a library algorithm (std::for_each, std::transform, ...) runs the
//    callables passed to it.
// CallTargets answers these from one index of the TU's assignments and
// overrides, built on first use. It is a may-analysis: every candidate is
// followed, which suits finding hazards (a wrong candidate can only add a
// finding whose notes name the candidate).
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_CALLTARGETS_H
#define CAPTURE_LINT_CALLTARGETS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class CXXMethodDecl;
class Expr;
class FunctionDecl;
class ValueDecl;
} // namespace clang

namespace capture_lint {

/// The function a callable expression runs: a lambda (also through a local
/// initialised with one, or a std::function built from one), a user
/// functor's operator(), or a named function; null when unknown.
const clang::FunctionDecl *callableOf(const clang::Expr *Arg);

class CallTargets {
public:
  explicit CallTargets(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  /// The user functions a call with no single known target may run:
  /// overrides of a virtual callee, what a called pointer or callable
  /// object was given. Empty for a direct non-virtual call.
  std::vector<const clang::FunctionDecl *>
  indirectTargets(const clang::CallExpr *Call);

  /// For a call into code capture-lint does not enter (a library
  /// algorithm), the user callables passed to it as arguments.
  std::vector<const clang::FunctionDecl *>
  callableArguments(const clang::CallExpr *Call);

private:
  void buildIndex();
  void addValue(const clang::ValueDecl *To, const clang::Expr *Value);
  void targetsOfValue(const clang::ValueDecl *V,
                      std::vector<const clang::FunctionDecl *> &Out);

  clang::ASTContext &Ctx;
  bool Built = false;
  /// What each variable, member or parameter-less callable holder is given.
  llvm::DenseMap<const clang::ValueDecl *,
                 llvm::SmallVector<const clang::Expr *, 2>>
      Assigned;
  /// Overrides of each virtual method (transitively), user code only.
  llvm::DenseMap<const clang::CXXMethodDecl *,
                 llvm::SmallVector<const clang::CXXMethodDecl *, 2>>
      Overrides;
};

} // namespace capture_lint

#endif // CAPTURE_LINT_CALLTARGETS_H
