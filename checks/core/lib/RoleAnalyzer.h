//===- RoleAnalyzer.h - Roles of user functions ----------------*- C++ -*-===//
//
// Answers "what does a call to this function do to captures" for one
// translation unit, memoized by canonical declaration (see FunctionRoles.h
// for the roles). The region finder, the guard recognizer and the hazard
// scanner all ask through the RoleOracle interface.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_ROLEANALYZER_H
#define CAPTURE_LINT_ROLEANALYZER_H

#include "CallTargets.h"
#include "capture_lint/Catalog.h"
#include "capture_lint/FunctionRoles.h"
#include "capture_lint/RoleImports.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class ValueDecl;
class VarDecl;
} // namespace clang

namespace capture_lint {

class RegionFinder;

class RoleAnalyzer : public RoleOracle {
public:
  /// \p Imports answers for functions this TU calls without their body
  /// (RoleImports.h); null for none.
  RoleAnalyzer(clang::ASTContext &Ctx, const Catalog &Cat,
               const RoleImports *Imports = nullptr)
      : Ctx(Ctx), Cat(Cat), Imports(Imports) {}

  const FunctionRole *roleOf(const clang::FunctionDecl *FD) override;
  bool isCaptureRegistry(const clang::VarDecl *V) override;
  bool isCaptureFlag(const clang::ValueDecl *V) override;
  const FunctionRole *indirectCloser(const clang::CallExpr *Call) override;
  const FunctionRole *guardCloser(const clang::VarDecl *V) override;
  /// The closer role every one of \p Fns has (null when one does not
  /// close, or there are none).
  const FunctionRole *
  sharedCloser(const std::vector<const clang::FunctionDecl *> &Fns);

  /// Cheap and conservative: false when nothing \p FD reaches could begin,
  /// end or guard a capture, so it can have no role from its body.
  bool mayHaveRole(const clang::FunctionDecl *FD);

  /// Whether some function of the TU ends captures of \p Group that it did
  /// not begin (a closer); only meaningful for roles already computed.
  bool hasCloserFor(const std::string &Group) const {
    return ClosedGroups.count(Group) != 0;
  }

private:
  FunctionRole computeRole(const clang::FunctionDecl *FD);
  /// Gives \p Role the role \p Kind declared (by \p By) for \p FD.
  void declare(FunctionRole &Role, const clang::FunctionDecl *FD,
               FunctionNote::Role Kind, unsigned Argument,
               const std::string &By);
  void roleFromBody(const clang::FunctionDecl *Def, FunctionRole &Role);
  /// Nested wrappers: a parameter \p Def passes on to a wrapper's wrapped
  /// argument.
  void addPassedOnWrapped(const RegionFinder &RF,
                          const clang::FunctionDecl *Def, FunctionRole &Role);
  const ApiEntry *declaredEntry(FunctionNote::Role Kind);
  /// The imported record for a function without a body here, if any.
  const SummaryRole *importedRole(const clang::FunctionDecl *FD) const;

  clang::ASTContext &Ctx;
  const Catalog &Cat;
  const RoleImports *Imports;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<FunctionRole>>
      Roles;
  llvm::SmallPtrSet<const clang::FunctionDecl *, 8> RolesInProgress;
  llvm::DenseMap<const clang::FunctionDecl *, bool> MayHaveRole;
  std::set<std::string> ClosedGroups;
  /// Static containers and the user functions that insert into them, built
  /// on the first registry question; then the answers.
  std::optional<llvm::DenseMap<const clang::VarDecl *,
                               std::vector<const clang::FunctionDecl *>>>
      Inserters;
  llvm::DenseMap<const clang::VarDecl *, bool> Registries;
  /// Bool members and statics and the user functions that set them to
  /// true, built on the first flag question; then the answers.
  std::optional<llvm::DenseMap<const clang::ValueDecl *,
                               std::vector<const clang::FunctionDecl *>>>
      TrueSetters;
  llvm::DenseMap<const clang::ValueDecl *, bool> Flags;
  /// What indirect calls may run (built on first use).
  std::unique_ptr<CallTargets> Targets;
};

} // namespace capture_lint

#endif // CAPTURE_LINT_ROLEANALYZER_H
