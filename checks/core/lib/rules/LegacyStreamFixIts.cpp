//===- LegacyStreamFixIts.cpp - Fixes of legacy-stream findings ---------===//

#include "LegacyStreamFixIts.h"
#include "capture_lint/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
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

/// The function whose body holds \p S (a lambda's call operator counts).
static const FunctionDecl *enclosingFunction(const Stmt *S, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(*S);
  while (!Parents.empty()) {
    if (const auto *FD = Parents[0].get<FunctionDecl>())
      return FD;
    if (const auto *P = Parents[0].get<Stmt>())
      Parents = Ctx.getParents(*P);
    else if (const auto *D = Parents[0].get<Decl>())
      Parents = Ctx.getParents(*D);
    else
      return nullptr;
  }
  return nullptr;
}

static bool isStreamType(QualType T) {
  std::string Name = T.getUnqualifiedType().getAsString();
  return llvm::StringRef(Name).contains_insensitive("stream") &&
         !llvm::StringRef(Name).contains_insensitive("status") &&
         !llvm::StringRef(Name).contains_insensitive("mode");
}

/// Whether \p FD is a member function of the class that has \p Field (or
/// of one derived from it).
static bool isMethodOfFieldsClass(const FunctionDecl *FD,
                                  const FieldDecl *Field) {
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  const auto *Owner =
      Field ? dyn_cast<CXXRecordDecl>(Field->getParent()) : nullptr;
  if (!MD || MD->isStatic() || !Owner)
    return false;
  const CXXRecordDecl *Class = MD->getParent()->getCanonicalDecl();
  return Class == Owner->getCanonicalDecl() ||
         (Class->hasDefinition() && Class->isDerivedFrom(Owner));
}

std::optional<DiagNote> calleeStreamNote(const CallExpr *Call,
                                         llvm::StringRef Stream,
                                         const FieldDecl *CapturingMember,
                                         llvm::StringRef StreamType,
                                         const ASTContext &Ctx) {
  if (!Call)
    return std::nullopt;
  const FunctionDecl *FD =
      enclosingFunction(Call, const_cast<ASTContext &>(Ctx));
  if (!FD || !FD->getIdentifier())
    return std::nullopt;
  std::string Name = "'" + FD->getNameAsString() + "'";
  std::string From =
      Stream.empty() ? "the capturing stream" : "'" + Stream.str() + "'";
  if (isMethodOfFieldsClass(FD, CapturingMember))
    return DiagNote{FD->getLocation(),
                    Name + " is a member function of '" +
                        CapturingMember->getParent()->getNameAsString() +
                        "': launch on its member '" +
                        CapturingMember->getNameAsString() +
                        "', the capturing stream"};
  for (const ParmVarDecl *P : FD->parameters())
    if (isStreamType(P->getType()) && P->getIdentifier())
      return DiagNote{FD->getLocation(), Name + " takes a stream, '" +
                                             P->getNameAsString() +
                                             "': launch on it, and pass " +
                                             From + " to it from the capture"};
  return DiagNote{FD->getLocation(),
                  Name + " takes no stream: add a '" + StreamType.str() +
                      " stream' parameter, launch on it, and pass " + From +
                      " from the capture"};
}

} // namespace capture_lint
