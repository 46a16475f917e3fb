//===- FrozenValues.h - Host state a region hands to work ---- -*- C++ -*-===//
//
// A graph records a kernel's arguments when the launch is captured. A host
// counter that the region updates (`++this->step_`, `g->expected += n`) and
// passes to a kernel keeps its capture-time value on every replay: replays
// run the kernel, not the host code that updated the counter. This finds
// such updates of persistent host state (members reached through `this`, a
// pointer or a reference; globals; statics) and the arguments that carry
// them, directly or through locals (`params.flag = g->expected`).
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_FROZENVALUES_H
#define CAPTURE_LINT_FROZENVALUES_H

#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace capture_lint {

class FrozenValues {
public:
  FrozenValues(const clang::Stmt *Body, const clang::ASTContext &Ctx)
      : Body(Body), Ctx(Ctx) {}

  /// Records \p S when it updates persistent host state from its own value
  /// (`++x`, `x += n`, `x = x + 1`). Call for every statement that runs
  /// inside the region, then ask carriedBy.
  void noteUpdate(const clang::Stmt *S);

  struct Carried {
    std::string State;               // "this->step_", as written
    clang::SourceLocation UpdateLoc; // where the region updates it
    std::string Carrier;             // the local that carries it, if any
    clang::SourceLocation CarrierLoc;
  };
  /// The updated state an argument passes on (itself, or a local written
  /// from it), or nullopt.
  std::optional<Carried> carriedBy(const clang::Expr *Arg);

  /// The updates noted, as written, with where each is.
  std::vector<std::pair<std::string, clang::SourceLocation>> updates() const {
    std::vector<std::pair<std::string, clang::SourceLocation>> Out;
    for (const auto &[Key, U] : Updates)
      Out.push_back({U.Text, U.Loc});
    return Out;
  }

private:
  struct Update {
    std::string Text;
    clang::SourceLocation Loc;
  };
  /// The key of persistent host state \p E denotes, or "".
  std::string persistentKey(const clang::Expr *E) const;
  /// The first updated state \p E reads (its key), or "".
  std::string updatedStateIn(const clang::Expr *E) const;
  void computeCarriers();

  const clang::Stmt *Body;
  const clang::ASTContext &Ctx;
  std::map<std::string, Update> Updates; // by persistentKey
  struct Carrier {
    std::string Key;
    clang::SourceLocation Loc;
  };
  llvm::DenseMap<const clang::VarDecl *, Carrier> Carriers;
  bool CarriersDone = false;
};

} // namespace capture_lint

#endif // CAPTURE_LINT_FROZENVALUES_H
