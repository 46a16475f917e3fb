//===- Collective.cpp - capture-collective --------------------------------===//
//
// Collectives that only some ranks capture. NCCL requires a captured
// operation to be captured on every rank of its communicator, each rank
// replaying the graph of that capture: a collective under a branch on the
// rank (`if (rank == 0) ncclAllReduce(...)`), or in a loop whose trip count
// is the rank, is recorded by some ranks only, and a replay then waits in
// it for ranks whose graph lacks it, a hang rather than an error. The
// collectives are the catalog's `collectives` name list; a condition
// depends on the rank when it names a variable, field or function with the
// word "rank" in its name (rank, local_rank, myRank, getRank(), not the
// count nranks), or a local initialised from one. Communicator set-up
// inside a region is the catalog's (class "collective", CatalogCall.cpp).
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

#include "capture_lint/AstUtil.h"
#include "capture_lint/CheckWords.h"
#include "capture_lint/RankNames.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace capture_lint::rules {

namespace {

/// Whether the value of \p S depends on the process's rank: it names a
/// variable, field or function whose name says so, or a local variable
/// initialised from such a value (followed two deep).
bool dependsOnRank(const Stmt *S, unsigned Depth = 0) {
  if (!S)
    return false;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
    const ValueDecl *D = Ref->getDecl();
    if (namesRank(D->getName().str()))
      return true;
    const auto *Var = dyn_cast<VarDecl>(D);
    return Var && Var->isLocalVarDecl() && Depth < 2 &&
           dependsOnRank(Var->getInit(), Depth + 1);
  }
  if (const auto *Member = dyn_cast<MemberExpr>(S))
    if (namesRank(Member->getMemberDecl()->getName().str()))
      return true;
  for (const Stmt *Child : S->children())
    if (dependsOnRank(Child, Depth))
      return true;
  return false;
}

/// Finds the collective a call makes, directly or through the functions of
/// the translation unit it calls (three deep), memoized per function.
class CollectiveCalls {
public:
  explicit CollectiveCalls(const Catalog &Cat)
      : Names(Cat.nameList(NameList::Collectives)) {}

  /// The collective call \p Call is or reaches, or null.
  const CallExpr *reached(const CallExpr *Call, unsigned Depth = 0) {
    const FunctionDecl *Callee = directCallee(Call);
    if (!Callee)
      return nullptr;
    if (Names.count(Callee->getNameAsString()))
      return Call;
    const FunctionDecl *Def = nullptr;
    if (Depth >= 3 || !Callee->hasBody(Def) || !Def)
      return nullptr;
    auto [It, New] = Memo.try_emplace(Def, nullptr);
    if (!New)
      return It->second;
    const CallExpr *Found = nullptr;
    walkStatements(Def->getBody(), [&](const Stmt *S) {
      if (const auto *Inner = dyn_cast<CallExpr>(S); Inner && !Found)
        Found = reached(Inner, Depth + 1);
      return !Found;
    });
    return Memo[Def] = Found;
  }

  /// Whether some call in \p S reaches a collective.
  bool anyIn(const Stmt *S) {
    bool Found = false;
    walkStatements(S, [&](const Stmt *X) {
      if (const auto *Call = dyn_cast<CallExpr>(X); Call && !Found)
        Found = reached(Call) != nullptr;
      return !Found;
    });
    return Found;
  }

private:
  const std::set<std::string, std::less<>> &Names;
  llvm::DenseMap<const FunctionDecl *, const CallExpr *> Memo;
};

/// A branch on the rank that decides whether a call runs.
struct RankBranch {
  const Expr *Cond;
  bool Loop;
};

/// The innermost branch on the rank around \p Call (below \p Body) that
/// runs it on some ranks only: an `if` or `?:` on the rank whose other arm
/// makes no collective, or a loop whose condition depends on the rank.
std::optional<RankBranch> rankBranchAround(const CallExpr *Call,
                                           const ParentMap &PM,
                                           CollectiveCalls &Collectives) {
  for (const Stmt *Child = Call, *P = PM.getParent(Call); P;
       Child = P, P = PM.getParent(P)) {
    const Expr *Cond = nullptr;
    const Stmt *Other = nullptr;
    bool Loop = false;
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (Child == If->getThen())
        Cond = If->getCond(), Other = If->getElse();
      else if (Child == If->getElse())
        Cond = If->getCond(), Other = If->getThen();
    } else if (const auto *Op = dyn_cast<ConditionalOperator>(P)) {
      if (Child == Op->getTrueExpr())
        Cond = Op->getCond(), Other = Op->getFalseExpr();
      else if (Child == Op->getFalseExpr())
        Cond = Op->getCond(), Other = Op->getTrueExpr();
    } else if (const auto *For = dyn_cast<ForStmt>(P)) {
      if (Child == For->getBody())
        Cond = For->getCond(), Loop = true;
    } else if (const auto *While = dyn_cast<WhileStmt>(P)) {
      if (Child == While->getBody())
        Cond = While->getCond(), Loop = true;
    } else if (const auto *Do = dyn_cast<DoStmt>(P)) {
      if (Child == Do->getBody())
        Cond = Do->getCond(), Loop = true;
    }
    if (!Cond || !dependsOnRank(Cond))
      continue;
    // Both arms make a collective: every rank records one.
    if (!Loop && Other && Collectives.anyIn(Other))
      continue;
    return RankBranch{Cond, Loop};
  }
  return std::nullopt;
}

/// Whether \p Cond, or a part of it, is among the statements \p Capturing.
bool evaluatedIn(const Stmt *Cond,
                 const llvm::SmallPtrSetImpl<const Stmt *> &Capturing) {
  if (!Cond)
    return false;
  if (Capturing.count(Cond))
    return true;
  for (const Stmt *Child : Cond->children())
    if (evaluatedIn(Child, Capturing))
      return true;
  return false;
}

/// The finding for \p Call, which makes \p Made (itself, or a collective
/// in a function it calls), under \p Branch in region \p R.
ClangFinding unevenCollective(const CaptureRegion &R, const CallExpr *Call,
                              const CallExpr *Made, const RankBranch &Branch,
                              const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  MessageParts Words =
      unevenCollectiveWords("'" + displayName(directCallee(Made)) + "'",
                            sourceText(Branch.Cond, Ctx), Branch.Loop);
  SourceLocation MadeAt = fileLoc(Made->getBeginLoc(), SM);
  Reach Through;
  if (Made != Call) {
    Through.Via = displayName(directCallee(Call));
    Through.Where = llvm::sys::path::filename(SM.getFilename(MadeAt)).str() +
                    ":" + std::to_string(SM.getSpellingLineNumber(MadeAt));
  }
  std::optional<FindingText> Text =
      describe(std::make_pair(Severity::Error, Words), Through);
  ClangFinding F =
      regionFinding(CheckKind::Collective, R, fileLoc(Call->getBeginLoc(), SM),
                    Text->Message, Ctx);
  F.Level = Text->Level;
  F.Notes.insert(
      F.Notes.begin(),
      {fileLoc(Branch.Cond->getBeginLoc(), SM),
       std::string(Branch.Loop ? "the loop" : "the branch") + " on the rank"});
  if (Made != Call)
    F.Notes.insert(F.Notes.begin() + 1, {MadeAt, Text->HereNote});
  return F;
}

} // namespace

std::vector<ClangFinding> collective(const FunctionRuleInput &In) {
  std::vector<ClangFinding> Out;
  if (In.Cat.nameList(NameList::Collectives).empty())
    return Out;
  // The statements evaluated while capturing, and the calls among them
  // with the region each runs in.
  llvm::SmallPtrSet<const Stmt *, 32> Capturing;
  std::vector<std::pair<const CallExpr *, unsigned>> Calls;
  In.RF.forEachStatement([&](const Stmt *S, const FlowState &State, bool) {
    if (!State.inRegion() || !Capturing.insert(S).second)
      return;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      Calls.push_back({Call, unsigned(State.Active.find_first())});
  });
  CollectiveCalls Collectives(In.Cat);
  std::optional<ParentMap> PM;
  for (const auto &[Call, Region] : Calls) {
    const CallExpr *Made = Collectives.reached(Call);
    if (!Made)
      continue;
    if (!PM)
      PM.emplace(const_cast<Stmt *>(In.Def->getBody()));
    // Only a branch decided during the capture splits the ranks' graphs;
    // one around the whole capture gives each rank the same graph.
    if (auto Branch = rankBranchAround(Call, *PM, Collectives);
        Branch && evaluatedIn(Branch->Cond, Capturing))
      Out.push_back(unevenCollective(In.RF.regions()[Region], Call, Made,
                                     *Branch, In.Ctx));
  }
  return Out;
}

} // namespace capture_lint::rules
