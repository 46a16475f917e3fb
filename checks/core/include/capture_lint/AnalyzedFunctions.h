//===- AnalyzedFunctions.h - What a TU's analysis visits --------*- C++ -*-===//
//
// Which functions of a translation unit the capture analysis is handed, for
// every front door alike (the clang-tidy adapter's matchers, the CLI's
// analysis of a TU): every function definition and lambda outside system
// headers, template instantiations included. The analyzer rejects those
// that reach no capture after a syntactic look.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_ANALYZEDFUNCTIONS_H
#define CAPTURE_LINT_ANALYZEDFUNCTIONS_H

#include "clang/ASTMatchers/ASTMatchFinder.h"

namespace capture_lint {

/// Registers the matchers of the analysed functions with \p Finder.
void addAnalyzedFunctionMatchers(
    clang::ast_matchers::MatchFinder &Finder,
    clang::ast_matchers::MatchFinder::MatchCallback *Callback);

/// The function a match of those matchers stands for (a lambda's call
/// operator for a lambda), or null.
const clang::FunctionDecl *
analyzedFunction(const clang::ast_matchers::MatchFinder::MatchResult &Result);

} // namespace capture_lint

#endif // CAPTURE_LINT_ANALYZEDFUNCTIONS_H
