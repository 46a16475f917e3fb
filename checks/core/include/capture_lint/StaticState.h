//===- StaticState.h - Conditions on process-wide state ---------*- C++ -*-===//
//
// Two shapes of real code test process-wide state (a global or static
// variable) rather than the capture status, and still decide whether a
// branch can run under capture:
//
//  - One-time initialisation. A lookup that misses in a static cache, or a
//    static handle or flag still unset, takes a branch that fills it:
//
//      auto it = g_contexts.find(ctx);
//      if (it != g_contexts.end()) return &it->second;
//      cudaMallocAsync(&dummy, 1, NULL); ...   // first use only
//      g_contexts.insert({ctx, info});
//
//    That branch runs on the first call for a key, which real code makes
//    before it captures (a warm-up run, or an explicit call before the
//    begin). firstUseWhen() tells which side of a condition is that branch;
//    the region finder does not look for hazards on it (docs/regions.md,
//    "Limits", says what this can miss).
//
//  - A capture registry: a static container that a capture opener fills
//    after its begin (`g_captures[id] = capture;`). While such a capture is
//    active the registry is not empty, so `if (g_captures.empty())` guards a
//    "not capturing" branch. The guard recogniser asks isCaptureRegistry
//    (RoleOracle) about the container; containerOfEmptyTest() finds it.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_STATICSTATE_H
#define CAPTURE_LINT_STATICSTATE_H

#include <optional>
#include <vector>

namespace clang {
class Expr;
class Stmt;
class VarDecl;
} // namespace clang

namespace capture_lint {

/// The variable with static storage duration (a global, a static member or
/// a static local) that \p E names, or null.
const clang::VarDecl *staticVariableOf(const clang::Expr *E);

/// Whether \p S (a function body) writes \p V: inserts into it as a
/// container (insert, emplace, try_emplace, push_back, `V[k] = ...`, ...),
/// assigns it, or passes its address to a call (`cublasCreate(&handle)`).
bool writesStatic(const clang::Stmt *S, const clang::VarDecl *V);

/// Whether \p S (a function body) inserts into the container \p V.
bool insertsInto(const clang::Stmt *S, const clang::VarDecl *V);

/// The static containers \p S inserts into.
std::vector<const clang::VarDecl *> insertedStatics(const clang::Stmt *S);

/// For a branch condition in the function whose body is \p Body: true when
/// the branch taken when \p Cond is true is a first-use branch (a miss in
/// a static cache, or a static handle or flag not yet set, that the
/// function fills), false when it is the branch taken when \p Cond is
/// false; nullopt when \p Cond is no such test.
std::optional<bool> firstUseWhen(const clang::Expr *Cond,
                                 const clang::Stmt *Body);

/// The static container \p Cond asks `empty()` of (`G.empty()`), or null.
const clang::VarDecl *containerOfEmptyTest(const clang::Expr *Cond);

} // namespace capture_lint

#endif // CAPTURE_LINT_STATICSTATE_H
