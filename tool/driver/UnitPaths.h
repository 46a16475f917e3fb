//===- UnitPaths.h - Every file path a unit's result holds ------*- C++ -*-===//
//
// A unit's result (findings, errors, whole-program summary) names files by
// absolute path. What is kept on disk for other runs, machines or checkouts
// (summary files, the cache) writes the paths under a root relative to it
// and puts them back under the reader's root; these visit every path and
// do the rewriting, so the two stores agree on what a path is.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_UNITPATHS_H
#define CAPTURE_LINT_TOOL_UNITPATHS_H

#include "SummaryCache.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace capture_lint {

/// Calls \p F on every location \p S holds.
void eachSummaryLoc(TuSummary &S, llvm::function_ref<void(SummaryLoc &)> F);

/// Calls \p F on every location \p R holds.
void eachRoleLoc(SummaryRole &R, llvm::function_ref<void(SummaryLoc &)> F);

/// Calls \p F on every file path of \p U's findings, errors and summary
/// (not its dependencies, a map keyed by path).
void eachUnitPath(UnitResult &U, llvm::function_ref<void(std::string &)> F);

/// \p Path relative to \p Root when it is under it ("." for the root
/// itself); as it is otherwise, and always when \p Root is empty.
std::string relativeToRoot(llvm::StringRef Path, llvm::StringRef Root);

/// A relative \p Path put under \p Root; an absolute one as it is.
std::string underRoot(llvm::StringRef Path, llvm::StringRef Root);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_UNITPATHS_H
