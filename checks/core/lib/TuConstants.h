//===- TuConstants.h - Values one TU alone decides ----------- -*- C++ -*-===//
//
// Two facts a file can settle on its own, which decide whether a capture
// can run at all (HugeCTR's shape: a graph switch stored `false` in debug
// builds, passed as `use_graph` to the function that captures):
//
//  - a constant member: a non-public integral, enum or bool member of a
//    class (not a template) that every constructor sets to the same
//    constant (`enable_graph_(false)`, or its default initializer), and
//    that no code of the file writes, takes the address of, or binds to a
//    reference after construction, reads as that constant;
//  - callers' constants: a function that no other file can call (internal
//    linkage, a template defined in this file and not explicitly
//    instantiated, a non-virtual member of a class this file defines) and
//    that this file does not take the address of, is analysed for the
//    constant every one of its calls here passes to an integral, enum or
//    bool parameter (a constant, a never-written local holding one, a
//    constant member, or the caller's own parameter bound the same way).
//
// Both read one index of the file's user code (calls, function references,
// member uses), built on first need. Limits: a friend or derived class in
// another file that writes the member is not seen; nor is a file that
// includes this one.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TUCONSTANTS_H
#define CAPTURE_LINT_TUCONSTANTS_H

#include "capture_lint/RegionFinder.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

#include <optional>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FieldDecl;
class FunctionDecl;
class Stmt;
} // namespace clang

namespace capture_lint {

class TuConstants {
public:
  explicit TuConstants(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  /// The constant \p E has in \p Caller: an integer constant, a
  /// never-written local of the caller initialised with one, a constant
  /// member, or a parameter of the caller that its own callers fix.
  std::optional<int64_t> valueOf(const clang::Expr *E,
                                 const clang::FunctionDecl *Caller);

  /// The value every constructor gives \p F, when nothing else writes it.
  std::optional<int64_t> constantMember(const clang::FieldDecl *F);

  /// The parameters of \p Def that all its calls in this file fix, when no
  /// other file can call it; empty otherwise.
  const ParamBindings &callerBindings(const clang::FunctionDecl *Def);

private:
  struct Call {
    const clang::CallExpr *Expr;
    const clang::FunctionDecl *Caller; // null in an initializer
  };
  void buildIndex();
  void indexBody(const clang::Stmt *Body, const clang::FunctionDecl *Fn);
  bool onlyCalledHere(const clang::FunctionDecl *Def);
  ParamBindings computeBindings(const clang::FunctionDecl *Def);
  std::optional<int64_t> constructorsValue(const clang::FieldDecl *F);

  clang::ASTContext &Ctx;
  bool Built = false;
  /// Calls by callee (canonical declaration).
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<Call>> Calls;
  /// Functions referenced other than as the callee of a call.
  llvm::DenseSet<const clang::FunctionDecl *> Escaped;
  /// Names called where the callee depends on a template parameter.
  llvm::StringSet<> UnresolvedNames;
  /// Fields used other than by reading their value.
  llvm::DenseSet<const clang::FieldDecl *> Written;

  llvm::DenseMap<const clang::FieldDecl *, std::optional<int64_t>> Members;
  llvm::DenseMap<const clang::FunctionDecl *, ParamBindings> Bindings;
  llvm::DenseSet<const clang::FunctionDecl *> InProgress;
};

} // namespace capture_lint

#endif // CAPTURE_LINT_TUCONSTANTS_H
