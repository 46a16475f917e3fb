//===- UnendedOnError.cpp - capture-unended-on-error ----------------------===//
//
// A capture that some path of its function ends, and another path leaves
// open: an early `return` (an error-check macro that returns), the end of
// the body, a `throw` (or a call that throws instead of returning, such as
// a logging macro's fatal temporary). The stream stays in capture mode, so
// the first error becomes a cascade: a second begin fails, syncs and
// unrelated allocations fail, a late end gives a null graph.
//
// An opener returns with its capture open on purpose, for its callers to
// end: its returns are no error path, but a throw after its begin is, as
// the exception skips the callers' end too.
//
// Not reported: paths where the begin failed (RegionFinder ends the region
// there), exits past an end or a guard's destructor, throws inside a `try`
// of the function whose handler ends the capture or falls through to an
// end after it, throws when unwinding destroys a
// local that ends the capture, and calls that end the process (abort()).
// Regions no path ends, in a function that is no opener, are
// capture-unended-region's.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

#include "capture_lint/AstUtil.h"
#include "capture_lint/CheckWords.h"
#include "capture_lint/FunctionRoles.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace capture_lint::rules {
namespace {

/// One way out of the function with a capture open.
struct OpenExit {
  SourceLocation Loc;  // a file location
  const char *Verb;    // "returns", "throws", "ends"
  std::string Who;     // the function, or the macro the exit is written in
  std::string Through; // the function that throws, when a call does
  const ReturnStmt *Ret = nullptr; // the return, for "returns"
};

/// The function through which \p S leaves by an exception instead of
/// returning: a throw (null), a call to a function that does not return and
/// throws, a temporary whose such destructor runs. None for anything else.
std::optional<const FunctionDecl *> exceptionExit(const Stmt *S) {
  if (isa<CXXThrowExpr>(S))
    return nullptr;
  const FunctionDecl *Fn = nullptr;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    Fn = directCallee(Call);
  else if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(S))
    Fn = Bind->getTemporary()->getDestructor();
  // It throws, directly or through what it calls that does not return.
  if (Fn && Fn->isNoReturn() &&
      bodyHas(
          Fn, 2, [](const Stmt *S) { return isa<CXXThrowExpr>(S); },
          [](const FunctionDecl *Callee) { return Callee->isNoReturn(); }))
    return Fn;
  return std::nullopt;
}

/// Whether a `try` of the function around \p S ends \p R after a throw
/// there: one of its handlers ends it, or code after the `try` statement
/// does (a handler that falls through to it). A `try` whose handlers do
/// neither leaves the capture open (cudaqx's try_capture_cuda_graph
/// returns an error from its handler with the stream still capturing).
bool tryEnds(const Stmt *S, const ParentMap &PM, const CaptureRegion &R,
             const SourceManager &SM) {
  for (const Stmt *Child = S, *P = PM.getParent(S); P;
       Child = P, P = PM.getParent(P)) {
    const auto *Try = dyn_cast<CXXTryStmt>(P);
    if (!Try || Child != Try->getTryBlock())
      continue;
    SourceLocation TryEnd = SM.getExpansionLoc(Try->getEndLoc());
    for (SourceLocation End : R.Ends) {
      End = End.isValid() ? SM.getExpansionLoc(End) : End;
      if (End.isInvalid() || SM.isBeforeInTranslationUnit(TryEnd, End))
        return true; // a guard's end has no place: take it as ending
      for (unsigned H = 0; H < Try->getNumHandlers(); ++H) {
        SourceRange Handler = Try->getHandler(H)->getSourceRange();
        if (SM.isPointWithin(End, SM.getExpansionLoc(Handler.getBegin()),
                             SM.getExpansionLoc(Handler.getEnd())))
          return true;
      }
    }
  }
  return false;
}

/// The outermost macro \p Loc is written in, if any (RETURN_IF_ERROR).
std::string macroAt(SourceLocation Loc, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Name;
  while (Loc.isMacroID()) {
    if (!SM.isMacroArgExpansion(Loc))
      Name = Lexer::getImmediateMacroName(Loc, SM, Ctx.getLangOpts()).str();
    Loc = SM.getImmediateMacroCallerLoc(Loc);
  }
  return Name;
}

/// The finding for \p R, left open at \p Exits (sorted, at least one).
ClangFinding describe(const CaptureRegion &R, std::vector<OpenExit> &Exits,
                      const FunctionDecl *Def, const Catalog &Cat,
                      const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const OpenExit &First = Exits.front();
  SourceLocation Begin = fileLoc(R.BeginLoc, SM);
  std::string End = R.Api ? endCallName(*R.Api, Cat) : "";
  ClangFinding F;
  F.Check = CheckKind::UnendedOnError;
  F.Level = Severity::Warning;
  F.Loc = First.Loc;
  F.Api = First.Verb;
  F.Message =
      "'" + First.Who + "' " + First.Verb + " here" +
      (First.Through.empty() ? "" : " (through '" + First.Through + "')") +
      " with the capture of " + streamPhrase(R) +
      " still open (begun at line " +
      std::to_string(SM.getSpellingLineNumber(Begin)) +
      "): " + unendedConsequence(isHipRegion(R) ? "hip" : "cuda") +
      "; end the capture on this path before leaving" +
      (End.empty() ? "" : " ('" + End + "', then destroy the graph)") +
      ", or hold it in a guard whose destructor ends it";
  for (size_t I = 1; I < Exits.size(); ++I)
    F.Notes.push_back({Exits[I].Loc, "and " + std::string(Exits[I].Verb) +
                                         " here with it open"});
  F.Notes.push_back({Begin, "the capture begins here"});
  // Where other paths end it (a guard's destructor may have no place).
  auto Ended =
      llvm::find_if(R.Ends, [](SourceLocation L) { return L.isValid(); });
  if (Ended != R.Ends.end())
    F.Notes.push_back({fileLoc(*Ended, SM), "it is ended here on other paths"});
  F.RegionBegin = Begin;
  F.Mode = R.Mode;
  F.Stream = R.Stream;
  for (const OpenExit &X : Exits)
    for (FixItHint &Fix : endOnPathFixIts(R, X.Ret, Def, Cat, Ctx))
      F.Fixes.push_back(std::move(Fix));
  return F;
}

} // namespace

std::string endCallName(const RegionApi &Api, const Catalog &Cat) {
  std::string Name;
  for (const auto &Other : Cat.regions())
    if (Other->Kind == RegionApi::End && Other->Group == Api.Group &&
        (Name.empty() || Other->Family == Api.Family))
      Name = Other->Name;
  return Name;
}

/// One finding per region with exits \p Exits (in source order, one per
/// place).
static std::vector<ClangFinding>
findingsOf(const std::vector<CaptureRegion> &Regions,
           std::vector<std::vector<OpenExit>> &Exits, const FunctionDecl *Def,
           const Catalog &Cat, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<ClangFinding> Out;
  for (unsigned I = 0; I < Regions.size(); ++I) {
    std::vector<OpenExit> &E = Exits[I];
    if (E.empty())
      continue;
    llvm::sort(E, [&](const OpenExit &A, const OpenExit &B) {
      return SM.isBeforeInTranslationUnit(A.Loc, B.Loc);
    });
    E.erase(std::unique(E.begin(), E.end(),
                        [](const OpenExit &A, const OpenExit &B) {
                          return A.Loc == B.Loc;
                        }),
            E.end());
    Out.push_back(describe(Regions[I], E, Def, Cat, Ctx));
  }
  return Out;
}

/// Whether a local of \p Def has a destructor whose body is in another
/// file: it may end the capture when a throw unwinds it (mlx's
/// `auto capture = encoder.capture_context();`, whose destructor, in
/// device.cpp, ends what its constructor began), and it may be why \p Def
/// looks like an opener at all.
static bool opaqueDestructorLocal(const FunctionDecl *Def) {
  bool Found = false;
  walkStatements(Def->getBody(), [&](const Stmt *S) {
    const auto *DS = dyn_cast<DeclStmt>(S);
    if (!DS)
      return !Found;
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        if (const CXXRecordDecl *RD = VD->getType()->getAsCXXRecordDecl())
          if (const CXXDestructorDecl *Dtor = RD->getDestructor();
              Dtor && Dtor->isUserProvided() && !Dtor->hasBody() &&
              inUserCode(Dtor))
            Found = true;
    return !Found;
  });
  return Found;
}

/// In an opener's findings, a note that its callers end the capture.
static void noteCallersEnd(std::vector<ClangFinding> &Findings,
                           const FunctionDecl *Def, const SourceManager &SM) {
  for (ClangFinding &F : Findings)
    F.Notes.push_back({fileLoc(Def->getLocation(), SM),
                       "'" + displayName(Def) +
                           "' leaves the capture open for its callers to "
                           "end; the exception skips their end too"});
}

std::vector<ClangFinding> unendedOnError(const FunctionRuleInput &In) {
  // A function that pauses a caller's capture and resumes it ends nothing
  // of its own. Leaving main ends the process, and the capture with it.
  if ((In.Own && In.Own->PausesAndResumes) || In.Def->isMain())
    return {};
  bool Opener = In.Own && In.Own->Opens;
  if (Opener && opaqueDestructorLocal(In.Def))
    return {};
  const FunctionDecl *Def = In.Def;
  const RegionFinder &RF = In.RF;
  const Catalog &Cat = In.Cat;
  ASTContext &Ctx = In.Ctx;
  const SourceManager &SM = Ctx.getSourceManager();
  const std::vector<CaptureRegion> &Regions = RF.regions();
  std::vector<std::vector<OpenExit>> Exits(Regions.size());
  auto Open = [&](const FlowState &State, unsigned I) {
    const CaptureRegion &R = Regions[I];
    return State.Reached && !State.Guarded && State.Active.test(I) &&
           R.Reached && (!R.Ends.empty() || Opener) && R.BeginLoc.isValid();
  };
  std::string Fn = displayName(Def);
  auto Who = [&](SourceLocation L) {
    std::string Macro = macroAt(L, Ctx);
    return Macro.empty() ? Fn : Macro;
  };
  RF.forEachNormalExit(
      [&](const RegionFinder::NormalExit &X, const FlowState &State) {
        if (Opener)
          return; // hands the capture to its callers
        // The end of the body: its closing brace (of the handlers' last, for a
        // function-try-block).
        const auto *Body = dyn_cast<CompoundStmt>(Def->getBody());
        SourceLocation L = X.At   ? X.At->getBeginLoc()
                           : Body ? Body->getRBracLoc()
                                  : Def->getBody()->getEndLoc();
        for (unsigned I = 0; I < Regions.size(); ++I)
          if (Open(State, I))
            Exits[I].push_back({fileLoc(L, SM), X.At ? "returns" : "ends",
                                X.At ? Who(L) : Fn, "", X.At});
      });
  std::optional<ParentMap> PM;
  RF.forEachStatement([&](const Stmt *S, const FlowState &State, bool) {
    auto Thrower = exceptionExit(S);
    if (!Thrower)
      return;
    if (!PM)
      PM.emplace(const_cast<Stmt *>(Def->getBody()));
    for (unsigned I = 0; I < Regions.size(); ++I)
      if (Open(State, I) && !RF.unwindingMayEnd(I) &&
          !tryEnds(S, *PM, Regions[I], SM))
        Exits[I].push_back({fileLoc(S->getBeginLoc(), SM), "throws",
                            Who(S->getBeginLoc()),
                            *Thrower ? displayName(*Thrower) : ""});
  });
  std::vector<ClangFinding> Out = findingsOf(Regions, Exits, Def, Cat, Ctx);
  if (Opener)
    noteCallersEnd(Out, Def, SM);
  return Out;
}

} // namespace capture_lint::rules
