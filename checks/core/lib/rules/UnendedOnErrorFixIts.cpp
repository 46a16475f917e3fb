//===- UnendedOnErrorFixIts.cpp - Ending a capture on an error path -------===//
//
// The fix a capture-unended-on-error finding gets where the shape allows:
// before a `return` written in the function (not in a macro) that leaves a
// capture begun by a runtime begin call open, end that capture and destroy
// what it gives back:
//
//   if (cudaGraph_t abandoned{};
//       cudaStreamEndCapture(stream, &abandoned) == cudaSuccess)
//     (void)cudaGraphDestroy(abandoned);
//   return err;
//
// (a block with the same calls before C++17; hip*, or CUgraph and cu* for
// the driver API), in braces with the return when the return is the
// unbraced body of an `if` or loop. The stream is the begin's argument as
// written, and only when it names the same stream at the return: a
// parameter, a global, a member of `this`, or a local whose scope holds
// the return; no calls. Ending a capture that already failed returns an
// error and no graph, so the destroy runs only after a success.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

#include "capture_lint/AstUtil.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace capture_lint::rules {
namespace {

/// Whether \p Scope (a statement) holds \p S.
bool holds(const Stmt *Scope, const Stmt *S, const ParentMap &PM) {
  for (const Stmt *P = S; P; P = PM.getParent(P))
    if (P == Scope)
      return true;
  return false;
}

/// Whether \p Stream (the begin's stream argument) names the same stream
/// at \p Ret: only names, members and literal indexes, each visible there.
bool sameStreamAt(const Expr *Stream, const ReturnStmt *Ret, const Stmt *Body,
                  const ParentMap &PM) {
  bool Stable = true;
  walkStatements(Stream, [&](const Stmt *S) {
    if (isa<CallExpr>(S))
      Stable = false;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
          Var && Var->hasLocalStorage() && !isa<ParmVarDecl>(Var)) {
        const Stmt *Block = scopeOfLocal(Var, Body, PM);
        Stable &= Block && holds(Block, Ret, PM);
      }
    return Stable;
  });
  return Stable;
}

/// The statement that ends the capture of \p Stream and destroys its
/// graph, for the API family whose end call is \p End.
std::string endStatement(llvm::StringRef End, llvm::StringRef Stream,
                         const LangOptions &LO) {
  llvm::StringRef Prefix = End.substr(0, End.find("Stream"));
  std::string Graph = Prefix == "cu" ? "CUgraph" : Prefix.str() + "Graph_t";
  std::string Success =
      Prefix == "cu" ? "CUDA_SUCCESS" : Prefix.str() + "Success";
  std::string Call = End.str() + "(" + Stream.str() + ", &abandoned)";
  std::string Destroy = "(void)" + Prefix.str() + "GraphDestroy(abandoned);";
  if (LO.CPlusPlus17)
    return "if (" + Graph + " abandoned{}; " + Call + " == " + Success + ") " +
           Destroy;
  return "{ " + Graph + " abandoned = " + (LO.CPlusPlus ? "nullptr" : "NULL") +
         "; if (" + Call + " == " + Success + ") " + Destroy + " }";
}

/// The white space that starts the line of \p Loc, up to it.
std::string indentOf(SourceLocation Loc, const SourceManager &SM) {
  auto [File, Offset] = SM.getDecomposedLoc(Loc);
  llvm::StringRef Text = SM.getBufferData(File);
  llvm::StringRef Before = Text.substr(0, Offset);
  llvm::StringRef Line = Before.substr(Before.find_last_of('\n') + 1);
  return Line.take_while([](char C) { return C == ' ' || C == '\t'; }).str();
}

} // namespace

std::vector<FixItHint> endOnPathFixIts(const CaptureRegion &R,
                                       const ReturnStmt *Ret,
                                       const FunctionDecl *Def,
                                       const Catalog &Cat,
                                       const ASTContext &Ctx) {
  if (!Ret || !R.Begin || !R.Api || R.Begin->getNumArgs() == 0 ||
      Ret->getBeginLoc().isMacroID() || Ret->getEndLoc().isMacroID())
    return {};
  std::string End = endCallName(*R.Api, Cat);
  const Expr *Stream = R.Begin->getArg(0);
  std::string Text = sourceText(Stream, Ctx);
  if (End.empty() || Text.empty() || Stream->getBeginLoc().isMacroID())
    return {};
  const Stmt *Body = Def->getBody();
  ParentMap PM(const_cast<Stmt *>(Body));
  if (!sameStreamAt(Stream, Ret, Body, PM))
    return {};
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Statement = endStatement(End, Text, Ctx.getLangOpts());
  if (isa_and_nonnull<CompoundStmt>(PM.getParent(Ret))) {
    return {FixItHint::CreateInsertion(Ret->getBeginLoc(),
                                       Statement + "\n" +
                                           indentOf(Ret->getBeginLoc(), SM))};
  }
  SourceLocation AfterSemi = Lexer::findLocationAfterToken(
      Ret->getEndLoc(), tok::semi, SM, Ctx.getLangOpts(), false);
  if (AfterSemi.isInvalid())
    return {};
  return {
      FixItHint::CreateInsertion(Ret->getBeginLoc(), "{ " + Statement + " "),
      FixItHint::CreateInsertion(AfterSemi, " }")};
}

} // namespace capture_lint::rules
