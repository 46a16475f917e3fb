//===- FixIts.cpp - Mechanical fixes for legacy-stream findings -----------===//

#include "capture_lint/FixIts.h"
#include "capture_lint/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace capture_lint {

std::vector<FixItHint> streamFixIts(const CallExpr *Call, unsigned StreamIndex,
                                    llvm::StringRef Stream,
                                    const ASTContext &Ctx) {
  if (!Call || Stream.empty() || StreamIndex >= Call->getNumArgs())
    return {};
  const SourceManager &SM = Ctx.getSourceManager();
  // Never inside a macro (CUDA_CHECK(...)): the call itself must be written
  // in the file. A whole macro as the argument (NULL, cudaStreamLegacy) is
  // fine to replace.
  if (Call->getBeginLoc().isMacroID() || Call->getRParenLoc().isMacroID() ||
      SM.isInSystemHeader(Call->getRParenLoc()))
    return {};
  const Expr *Arg = Call->getArg(StreamIndex);
  if (!isa<CXXDefaultArgExpr>(Arg)) {
    CharSourceRange R = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(Arg->getSourceRange()), SM,
        Ctx.getLangOpts());
    if (R.isInvalid())
      return {};
    return {FixItHint::CreateReplacement(R, Stream)};
  }
  // Defaulted: spell out the defaults before the stream, then the stream.
  unsigned First = StreamIndex;
  while (First > 0 && isa<CXXDefaultArgExpr>(Call->getArg(First - 1)))
    --First;
  std::string Insert;
  for (unsigned I = First; I < StreamIndex; ++I) {
    const auto *D = cast<CXXDefaultArgExpr>(Call->getArg(I));
    std::string Text = writtenText(D->getExpr(), Ctx);
    if (Text.empty())
      return {};
    Insert += (Insert.empty() && First == 0 ? "" : ", ") + Text;
  }
  Insert += (Insert.empty() && First == 0 ? "" : ", ") + Stream.str();
  return {FixItHint::CreateInsertion(Call->getRParenLoc(), Insert)};
}

} // namespace capture_lint
