//===- CallTargets.h - Which functions an indirect call may run -*- C++ -*-===//
//
// Calls without a direct callee still run known code more often than not:
//  - a virtual call runs the method or any override visible in the TU, or,
//    on an object whose dynamic class the TU shows, that class's final
//    overrider;
//  - a call through a function pointer runs what the pointer was given: a
//    local or global initialised or assigned with a function, a member
//    assigned one (in a constructor's initializers or anywhere in the TU),
//    an element of a table initialised with functions (the entry a
//    constant index names);
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

#include "clang/AST/DeclCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class CXXMethodDecl;
class CXXRecordDecl;
class Expr;
class FunctionDecl;
class ValueDecl;
} // namespace clang

namespace capture_lint {

/// The function a callable expression runs: a lambda (also through a local
/// initialised with one, or a std::function built from one), a user
/// functor's operator(), or a named function; null when unknown.
const clang::FunctionDecl *callableOf(const clang::Expr *Arg);

/// Whether destructor \p D calls a callable held in a member of its class
/// (a scope guard's `~ScopeGuard() { if (f) f(); }`).
bool runsHeldCallable(const clang::CXXDestructorDecl *D);

class CallTargets {
public:
  explicit CallTargets(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  /// The user functions a call with no single known target may run:
  /// overrides of a virtual callee, what a called pointer or callable
  /// object was given. Empty for a direct non-virtual call. \p Exact, when
  /// given, is set when these are all the call may run: a virtual call on
  /// an object whose dynamic types are known (`Op *p = &gemm;`,
  /// `std::make_unique<DebugOp>()`) runs their final overriders only, so
  /// neither the method called nor other overrides need following.
  std::vector<const clang::FunctionDecl *>
  indirectTargets(const clang::CallExpr *Call, bool *Exact = nullptr);

  /// For a call into code capture-lint does not enter (a library
  /// algorithm), the user callables passed to it as arguments.
  std::vector<const clang::FunctionDecl *>
  callableArguments(const clang::CallExpr *Call);

  /// The callables an object initialised with \p Init was constructed
  /// with: the callable arguments of its constructor, through temporaries,
  /// conditionals and the return statements of user functions that build
  /// it (`return ScopeGuard{[=] {...}};`, `return {};` giving none);
  /// nullopt when some construction is not seen.
  std::optional<std::vector<const clang::FunctionDecl *>>
  constructionCallables(const clang::Expr *Init);

private:
  bool addConstructionCallables(const clang::Expr *E, unsigned Depth,
                                std::vector<const clang::FunctionDecl *> &Out);
  void buildIndex();
  void addValue(const clang::ValueDecl *To, const clang::Expr *Value);
  /// What \p V was given; of a table, entry \p Index only when known.
  void targetsOfValue(const clang::ValueDecl *V,
                      std::vector<const clang::FunctionDecl *> &Out,
                      std::optional<int64_t> Index = std::nullopt);
  /// Adds the function \p Value runs to \p Out. A parameter runs what the
  /// function's callers pass it (`ScopeGuard(std::function<void()> cb) :
  /// m_callback{std::move(cb)}` holds the lambda of `ScopeGuard{[] {...}}`);
  /// \p Seen stops a parameter passed back to itself.
  void addTarget(const clang::Expr *Value,
                 std::vector<const clang::FunctionDecl *> &Out,
                 llvm::SmallPtrSetImpl<const clang::ValueDecl *> &Seen);
  /// The classes the object of a virtual call may have, when every value
  /// its holder (a local or global pointer, reference or smart pointer, or
  /// an object) was given shows one; nullopt when any is unknown.
  std::optional<llvm::SmallVector<const clang::CXXRecordDecl *, 2>>
  dynamicClasses(const clang::Expr *Object);

  clang::ASTContext &Ctx;
  bool Built = false;
  /// What each variable, member or parameter-less callable holder is given.
  llvm::DenseMap<const clang::ValueDecl *,
                 llvm::SmallVector<const clang::Expr *, 2>>
      Assigned;
  /// The calls and constructions of each user function (canonical decl).
  llvm::DenseMap<const clang::FunctionDecl *,
                 llvm::SmallVector<const clang::Expr *, 4>>
      CallSites;
  /// Overrides of each virtual method (transitively), user code only.
  llvm::DenseMap<const clang::CXXMethodDecl *,
                 llvm::SmallVector<const clang::CXXMethodDecl *, 2>>
      Overrides;
};

} // namespace capture_lint

#endif // CAPTURE_LINT_CALLTARGETS_H
