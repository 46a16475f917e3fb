//===- AnalyzedFunctions.cpp - The functions a TU's analysis visits -------===//

#include "capture_lint/AnalyzedFunctions.h"

#include "clang/ASTMatchers/ASTMatchers.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace capture_lint {

void addAnalyzedFunctionMatchers(MatchFinder &Finder,
                                 MatchFinder::MatchCallback *Callback) {
  // Regions begin in functions that call the catalog's begin calls,
  // openers, RAII guards and wrappers, or that are declared to run under
  // capture.
  Finder.addMatcher(
      functionDecl(isDefinition(), unless(isExpansionInSystemHeader()))
          .bind("function"),
      Callback);
  Finder.addMatcher(
      lambdaExpr(unless(isExpansionInSystemHeader())).bind("lambda"), Callback);
}

const FunctionDecl *analyzedFunction(const MatchFinder::MatchResult &Result) {
  if (const auto *L = Result.Nodes.getNodeAs<LambdaExpr>("lambda"))
    return L->getCallOperator();
  return Result.Nodes.getNodeAs<FunctionDecl>("function");
}

} // namespace capture_lint
