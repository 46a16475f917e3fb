//===- ToolkitVersion.cpp - The CUDA version the headers declare ----------===//

#include "capture_lint/ToolkitVersion.h"

#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang;

namespace capture_lint {

/// The value of an object-like macro defined as one integer literal.
static std::optional<int> integerMacro(const Preprocessor &PP,
                                       llvm::StringRef Name) {
  IdentifierInfo *II =
      PP.getIdentifierTable().find(Name) == PP.getIdentifierTable().end()
          ? nullptr
          : PP.getIdentifierInfo(Name);
  if (!II)
    return std::nullopt;
  const MacroInfo *MI = PP.getMacroInfo(II);
  if (!MI || MI->isFunctionLike() || MI->getNumTokens() != 1)
    return std::nullopt;
  const Token &T = MI->getReplacementToken(0);
  if (!T.is(tok::numeric_constant) || !T.getLiteralData())
    return std::nullopt;
  int Value = 0;
  if (llvm::StringRef(T.getLiteralData(), T.getLength())
          .getAsInteger(10, Value))
    return std::nullopt;
  return Value;
}

std::optional<int> cudaVersionOf(const Preprocessor &PP) {
  if (auto V = integerMacro(PP, "CUDART_VERSION"))
    return V;
  return integerMacro(PP, "CUDA_VERSION");
}

} // namespace capture_lint
