//===- DanglingBuffer.cpp - capture-dangling-buffer -----------------------===//
//
// Memory a graph outlives. A captured kernel argument or copy keeps the
// address it was given, and every launch of the graph uses it again
// (capture-rules.md: a captured H2D copy from pageable memory re-reads the
// host address at each launch; cudaFree of a buffer a graph exec uses, then
// a launch: 0, 0, and 700 at the next synchronize). Two shapes in the
// capturing function:
//  - a local's storage (`h.data()`, `&x`, a local array, a temporary)
//    given to captured work, where the graph outlives the local: the graph
//    (or the exec instantiated from it) is kept beyond the function (a
//    member, a global, an out-parameter, returned, or by a closer that
//    keeps it in an object the function does not own), or launched after
//    the local's scope ends, or the function returns with the capture open
//    (an opener, or a pause and resume: its callers end the capture after
//    its locals are gone);
//  - a buffer given to captured work, freed after the capture (the
//    catalog's `frees`) and before a launch of a graph later in the
//    function (the catalog's `graph_launches`).
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

#include "capture_lint/AstUtil.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace capture_lint::rules {

namespace {

/// A variable of the function's own whose storage ends with its scope
/// (not static, not a parameter, not a reference), or null.
const VarDecl *localVar(const Expr *E) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var) ||
      Var->getType()->isReferenceType())
    return nullptr;
  return Var;
}

/// Such a local that holds its data itself (not a pointer to other memory).
const VarDecl *ownedLocal(const Expr *E) {
  const VarDecl *Var = localVar(E);
  return Var && !Var->getType()->isPointerType() ? Var : nullptr;
}

/// The local whose storage the pointer \p Arg points into: `&x`, `&a[i]`,
/// a local array `a`, `v.data()`, `v.get()`, `&v[0]` (a member call on a
/// local object that owns what it returns); null for anything else.
const VarDecl *storageOf(const Expr *Arg) {
  const Expr *E = Arg->IgnoreParenImpCasts();
  if (!Arg->getType()->isPointerType() && !Arg->getType()->isArrayType())
    return nullptr;
  if (const auto *Addr = dyn_cast<UnaryOperator>(E);
      Addr && Addr->getOpcode() == UO_AddrOf) {
    const Expr *Sub = Addr->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *Index = dyn_cast<ArraySubscriptExpr>(Sub))
      return storageOf(Index->getBase());
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Sub);
        Op && Op->getOperator() == OO_Subscript)
      return ownedLocal(Op->getArg(0));
    return ownedLocal(Sub);
  }
  for (const Expr *X = Arg->IgnoreParens();
       const auto *Cast = dyn_cast<ImplicitCastExpr>(X);
       X = Cast->getSubExpr()->IgnoreParens())
    if (Cast->getCastKind() == CK_ArrayToPointerDecay)
      return ownedLocal(Cast->getSubExpr());
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *M = Member->getMethodDecl();
    if (M && (M->getName() == "data" || M->getName() == "get"))
      if (const VarDecl *Owner =
              ownedLocal(Member->getImplicitObjectArgument()))
        return Owner->getType()->getAsCXXRecordDecl() &&
                       !Owner->getType()
                            ->getAsCXXRecordDecl()
                            ->hasTrivialDestructor()
                   ? Owner
                   : nullptr;
  }
  return nullptr;
}

/// Work whose pointer arguments a launch of the graph uses again: a <<<>>>
/// launch, and the memory operations among the runtime calls that enqueue
/// stream work (the catalog's stream_work_prefixes: copies, memsets,
/// prefetches). Launch APIs (cudaLaunchKernel) copy their argument array
/// at capture; queries (cudaStreamIsCapturing(s, &status)) are no work.
bool capturedWork(const CallExpr *Call, const Catalog &Cat) {
  if (isa<CUDAKernelCallExpr>(Call))
    return true;
  const FunctionDecl *Callee = directCallee(Call);
  if (!Callee)
    return false;
  std::string Name = Callee->getNameAsString();
  return Cat.listedAsPrefix(NameList::StreamWorkPrefixes, Name) &&
         llvm::StringRef(Name).contains_insensitive("mem");
}

/// What the function does with its graphs after the capture.
struct GraphUse {
  /// A graph (or exec) kept beyond the function, and where.
  const Stmt *Kept = nullptr;
  std::string KeptText;
  /// The function returns with the capture open, for its callers to end
  /// (an opener): the graph is made after every local of it is gone.
  bool LeftOpen = false;
  /// Where graphs are launched: launch calls, and the ends of a region by
  /// a closer that launches the graph (a guard's destructor).
  std::vector<SourceLocation> Launches;
};

/// Whether \p T's spelling names a graph or graph exec (cudaGraph_t,
/// cudaGraphExec_t *, hipGraph_t, CUgraph), not a graph node; as written,
/// or under its sugar (`&graphs[i]` of a std::vector<hipGraph_t> is a
/// `value_type *`, whose canonical type is `struct ihipGraph **`).
bool namesGraph(QualType T) {
  for (QualType Spelling : {T, T.getCanonicalType()}) {
    std::string Spelled = Spelling.getAsString();
    llvm::StringRef Name = Spelled;
    if (Name.contains_insensitive("node"))
      return false;
    if (Name.contains_insensitive("graph"))
      return true;
  }
  return false;
}

/// Whether \p E (the graph or exec out-argument, `&g`) names storage the
/// function does not own: a member, a global, a pointer parameter.
bool outlivesFunction(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Addr = dyn_cast<UnaryOperator>(E);
      Addr && Addr->getOpcode() == UO_AddrOf)
    return !localVar(Addr->getSubExpr());
  return !localVar(E); // a pointer parameter or member: the caller's
}

/// The local a graph out-argument (`&g`) writes, or null.
const VarDecl *graphLocal(const Expr *Arg) {
  const auto *Addr = dyn_cast<UnaryOperator>(Arg->IgnoreParenImpCasts());
  return Addr && Addr->getOpcode() == UO_AddrOf ? localVar(Addr->getSubExpr())
                                                : nullptr;
}

/// Where a graph local of \p Locals is handed to storage the function does
/// not own: `graph_ = g`, `graph_.reset(g, deleter)`, `graphs_.emplace(k,
/// g)`, `*out = g`. Null when nowhere.
const Stmt *storedBeyond(const FunctionDecl *Def,
                         const llvm::SmallPtrSetImpl<const VarDecl *> &Locals,
                         std::string &Into, const ASTContext &Ctx) {
  const Stmt *Found = nullptr;
  auto Names = [&](const Expr *E) {
    const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return Ref && Locals.count(dyn_cast<VarDecl>(Ref->getDecl()));
  };
  auto Outside = [&](const Expr *Dest) {
    return !localVar(Dest) && !ownedLocal(Dest);
  };
  walkStatements(Def->getBody(), [&](const Stmt *S) {
    const Expr *Dest = nullptr;
    if (const auto *B = dyn_cast<BinaryOperator>(S);
        B && B->getOpcode() == BO_Assign && Names(B->getRHS()))
      Dest = B->getLHS();
    else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
             Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
             Names(Op->getArg(1)))
      Dest = Op->getArg(0);
    else if (const auto *M = dyn_cast<CXXMemberCallExpr>(S);
             M && M->getImplicitObjectArgument() &&
             llvm::any_of(M->arguments(), Names))
      Dest = M->getImplicitObjectArgument();
    if (Dest && Outside(Dest)) {
      Found = S;
      Into = sourceText(Dest, Ctx);
    }
    return !Found;
  });
  return Found;
}

/// Whether \p Callee, a function of the program with a body here, launches
/// a graph itself (a closer such as `end_capture(graph, stream,
/// /*launch=*/true)`): a call of it is a launch.
bool launchesGraph(const FunctionDecl *Callee, const Catalog &Cat) {
  const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
  if (!Def || !Def->hasBody() || Cat.findRegionApi(catalogName(Def)))
    return false;
  bool Launches = false;
  walkStatements(Def->getBody(), [&](const Stmt *S) {
    const auto *Call = dyn_cast<CallExpr>(S);
    const FunctionDecl *F = Call ? directCallee(Call) : nullptr;
    Launches |= F && Cat.listed(NameList::GraphLaunches, F->getNameAsString());
    return !Launches;
  });
  return Launches;
}

/// The type of \p Call's argument \p I: in a template, `&state_.graph`
/// may have a dependent type, and the callee's parameter says what it is.
QualType argumentType(const CallExpr *Call, const FunctionDecl *Callee,
                      unsigned I) {
  const Expr *Arg = Call->getArg(I);
  if (Arg->isTypeDependent() && I < Callee->getNumParams())
    return Callee->getParamDecl(I)->getType();
  return Arg->getType();
}

/// The pointer-to-graph arguments of end or instantiate call \p Call: one
/// that names storage beyond the function keeps the graph there (\p Use);
/// the graph locals the others write go to \p Written.
void graphOutArguments(const CallExpr *Call, const FunctionDecl *Callee,
                       const ASTContext &Ctx, GraphUse &Use,
                       llvm::SmallPtrSetImpl<const VarDecl *> &Written) {
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    const Expr *Arg = Call->getArg(I);
    QualType T = argumentType(Call, Callee, I);
    if (T->isPointerType() && T->getPointeeType()->isPointerType() &&
        namesGraph(T) &&
        !Arg->isNullPointerConstant(const_cast<ASTContext &>(Ctx),
                                    Expr::NPC_ValueDependentIsNotNull) &&
        outlivesFunction(Arg)) {
      Use.Kept = Call, Use.KeptText = sourceText(Arg, Ctx);
      return;
    }
    if (const VarDecl *Local = graphLocal(Arg); Local && namesGraph(T))
      Written.insert(Local);
  }
}

/// The graphs \p Def's end calls and instantiations write, and its
/// launches (its own, and calls of functions that launch one): whether one
/// of them is kept beyond the function.
GraphUse graphUse(const FunctionDecl *Def, const Catalog &Cat,
                  const ASTContext &Ctx) {
  GraphUse Use;
  llvm::SmallPtrSet<const VarDecl *, 4> Written; // graph locals written
  walkStatements(Def->getBody(), [&](const Stmt *S) {
    if (const auto *Ret = dyn_cast<ReturnStmt>(S);
        Ret && Ret->getRetValue() && !Use.Kept &&
        namesGraph(Ret->getRetValue()->getType()))
      Use.Kept = Ret, Use.KeptText = sourceText(Ret->getRetValue(), Ctx);
    const auto *Call = dyn_cast<CallExpr>(S);
    const FunctionDecl *Callee = Call ? directCallee(Call) : nullptr;
    if (!Callee)
      return true;
    std::string Name = Callee->getNameAsString();
    if (Cat.listed(NameList::GraphLaunches, Name) || launchesGraph(Callee, Cat))
      Use.Launches.push_back(Call->getBeginLoc());
    if (Use.Kept)
      return true;
    // A libtorch graph that is a member: `graph_.capture_end()`.
    if (const auto *M = dyn_cast<CXXMemberCallExpr>(Call);
        M && Name == "capture_end" &&
        !ownedLocal(M->getImplicitObjectArgument())) {
      Use.Kept = Call;
      Use.KeptText = sourceText(M->getImplicitObjectArgument(), Ctx);
      return true;
    }
    // An end or instantiate call's pointer-to-graph argument.
    const RegionApi *Region = Cat.findRegionApi(catalogName(Callee));
    if ((Region && Region->Kind == RegionApi::End) ||
        Cat.listed(NameList::GraphInstantiations, Name))
      graphOutArguments(Call, Callee, Ctx, Use, Written);
    return true;
  });
  if (!Use.Kept && !Written.empty())
    Use.Kept = storedBeyond(Def, Written, Use.KeptText, Ctx);
  return Use;
}

/// Whether closer call \p Call (\p Callee's body, if here, ends its
/// caller's capture) keeps the graph beyond the caller: the closer keeps
/// it beyond itself (in its object, an out-parameter, not by returning
/// it; with the body elsewhere, a method is taken to end into its object),
/// the object is not one the caller owns (`holder->end(s)`, not `Graph
/// local; local.end(s)`), and no graph local of the caller receives it
/// (`end(s, &g)`, `end(cudaGraph_t &g)`: \p Written gets `g`, whose fate
/// the caller decides).
bool closerKeeps(const CallExpr *Call, const FunctionDecl *Callee,
                 const Catalog &Cat, const ASTContext &Ctx,
                 llvm::SmallPtrSetImpl<const VarDecl *> &Written) {
  const FunctionDecl *Body = Callee->getDefinition();
  const auto *M = dyn_cast<CXXMemberCallExpr>(Call);
  if (Body && Body->hasBody()) {
    const Stmt *Kept = graphUse(Body, Cat, Ctx).Kept;
    if (!Kept || isa<ReturnStmt>(Kept))
      return false;
  } else if (!M) {
    return false;
  }
  bool IntoLocal = false;
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    const VarDecl *Local = graphLocal(Call->getArg(I));
    if (!Local && I < Callee->getNumParams() &&
        Callee->getParamDecl(I)->getType()->isReferenceType())
      Local = localVar(Call->getArg(I));
    if (Local && namesGraph(Local->getType())) {
      Written.insert(Local);
      IntoLocal = true;
    }
  }
  return !IntoLocal && (!M || !ownedLocal(M->getImplicitObjectArgument()));
}

/// Where \p R's end keeps the graph beyond \p Def when the end is a call
/// of a closer (a function of the program, not a catalog end): the call,
/// or the statement that hands the local the closer wrote on; null when
/// it does not.
const Stmt *keptByCloser(const CaptureRegion &R, const FunctionDecl *Def,
                         const Catalog &Cat, const ASTContext &Ctx,
                         std::string &KeptText) {
  const Stmt *Kept = nullptr;
  walkStatements(Def->getBody(), [&](const Stmt *S) {
    const auto *Call = dyn_cast<CallExpr>(S);
    const FunctionDecl *Callee = Call ? directCallee(Call) : nullptr;
    const auto *M = dyn_cast_or_null<CXXMemberCallExpr>(Call);
    SourceLocation At = M      ? M->getExprLoc()
                        : Call ? Call->getBeginLoc()
                               : SourceLocation();
    if (!Callee || !llvm::is_contained(R.Ends, At) ||
        Cat.findRegionApi(catalogName(Callee)))
      return true;
    llvm::SmallPtrSet<const VarDecl *, 2> Written;
    if (closerKeeps(Call, Callee, Cat, Ctx, Written)) {
      Kept = Call;
      KeptText = M ? sourceText(M->getImplicitObjectArgument(), Ctx)
                   : sourceText(Call, Ctx);
    } else if (!Written.empty()) {
      Kept = storedBeyond(Def, Written, KeptText, Ctx);
    }
    return !Kept;
  });
  return Kept;
}

ClangFinding finding(const CaptureRegion &R, SourceLocation Loc,
                     std::string Message, const ASTContext &Ctx) {
  return regionFinding(CheckKind::DanglingBuffer, R, Loc, std::move(Message),
                       Ctx);
}

/// A local's storage given to work captured in \p R.
void danglingLocals(const CaptureRegion &R,
                    const std::vector<const CallExpr *> &Work,
                    const GraphUse &Use, const FunctionDecl *Def,
                    const ASTContext &Ctx, std::vector<ClangFinding> &Out) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::optional<ParentMap> PM;
  llvm::SmallPtrSet<const VarDecl *, 4> Reported;
  for (const CallExpr *Call : Work)
    for (const Expr *Arg : Call->arguments()) {
      const VarDecl *Local = storageOf(Arg);
      if (!Local || !Reported.insert(Local).second)
        continue;
      if (!PM)
        PM.emplace(const_cast<Stmt *>(Def->getBody()));
      const Stmt *Scope = scopeOfLocal(Local, Def->getBody(), *PM);
      if (!Scope)
        Scope = Def->getBody();
      SourceLocation Late;
      for (SourceLocation L : Use.Launches)
        if (SM.isBeforeInTranslationUnit(Scope->getEndLoc(), L))
          Late = L;
      if (!Use.Kept && Late.isInvalid() && !Use.LeftOpen)
        continue;
      std::string Name = Local->getNameAsString();
      std::string Why =
          Late.isValid()
              ? "a graph is launched after '" + Name + "' goes out of scope"
          : Use.LeftOpen
              ? "the graph outlives it ('" + displayName(Def) +
                    "' returns with the capture open, and its callers end "
                    "it after '" +
                    Name + "' is gone)"
              : "the graph outlives it (" +
                    (Use.KeptText.empty() ? "it" : "'" + Use.KeptText + "'") +
                    " is kept beyond '" + displayName(Def) + "')";
      ClangFinding F = finding(
          R, fileLoc(Arg->getBeginLoc(), SM),
          "'" + sourceText(Arg, Ctx) + "' points into '" + Name +
              "', a local of '" + displayName(Def) +
              "' whose storage ends with its scope, but the capture bakes "
              "the address into the graph and " +
              Why +
              ": every later launch reads or writes memory that belongs to "
              "something else by then, silently; keep the buffer alive "
              "beside the graph (a member, or storage owned with it) for as "
              "long as the graph is launched",
          Ctx);
      F.Notes.insert(F.Notes.begin(), {fileLoc(Local->getLocation(), SM),
                                       "'" + Name + "' is declared here"});
      if (Late.isValid())
        F.Notes.push_back({fileLoc(Late, SM), "the graph is launched here"});
      else if (Use.Kept && !Use.LeftOpen)
        F.Notes.push_back(
            {fileLoc(Use.Kept->getBeginLoc(), SM), "the graph is kept here"});
      Out.push_back(std::move(F));
    }
}

/// A buffer given to work captured in \p R, freed after the capture ends
/// and before a later launch in the function.
void freedBeforeLaunch(const CaptureRegion &R,
                       const std::vector<const CallExpr *> &Work,
                       const GraphUse &Use, const FunctionDecl *Def,
                       const Catalog &Cat, const ASTContext &Ctx,
                       std::vector<ClangFinding> &Out) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::set<std::string> Captured;
  for (const CallExpr *Call : Work)
    for (const Expr *Arg : Call->arguments())
      if (std::string T = sourceText(Arg, Ctx);
          Arg->getType()->isPointerType() && !T.empty())
        Captured.insert(T);
  auto End =
      llvm::find_if(R.Ends, [](SourceLocation L) { return L.isValid(); });
  if (End == R.Ends.end())
    return;
  walkStatements(Def->getBody(), [&](const Stmt *S) {
    const auto *Free = dyn_cast<CallExpr>(S);
    const FunctionDecl *Callee = Free ? directCallee(Free) : nullptr;
    if (!Callee || Free->getNumArgs() == 0 ||
        !Cat.listed(NameList::Frees, Callee->getNameAsString()) ||
        !SM.isBeforeInTranslationUnit(*End, Free->getBeginLoc()))
      return true;
    std::string Freed = sourceText(Free->getArg(0), Ctx);
    if (Freed.empty() || !Captured.count(Freed))
      return true;
    auto Launch = llvm::find_if(Use.Launches, [&](SourceLocation L) {
      return SM.isBeforeInTranslationUnit(Free->getBeginLoc(), L);
    });
    if (Launch == Use.Launches.end())
      return true;
    ClangFinding F = finding(
        R, fileLoc(Free->getBeginLoc(), SM),
        "'" + Callee->getNameAsString() + "' frees '" + Freed +
            "', which work captured into the graph uses, and a graph is "
            "launched after it: the launch uses the freed memory (it "
            "returns success; a synchronize reports an illegal address, or "
            "the memory is given to someone else and overwritten "
            "silently); free it after the last launch",
        Ctx);
    F.Notes.push_back({fileLoc(*Launch, SM), "the graph is launched here"});
    Out.push_back(std::move(F));
    return true;
  });
}

} // namespace

std::vector<ClangFinding> danglingBuffer(const FunctionRuleInput &In) {
  std::vector<ClangFinding> Out;
  const std::vector<CaptureRegion> &Regions = In.RF.regions();
  std::vector<std::vector<const CallExpr *>> Work(Regions.size());
  llvm::SmallPtrSet<const Stmt *, 32> Seen;
  In.RF.forEachStatement([&](const Stmt *S, const FlowState &State, bool) {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (Call && State.inRegion() && capturedWork(Call, In.Cat) &&
        Seen.insert(Call).second)
      Work[State.Active.find_first()].push_back(Call);
  });
  std::optional<GraphUse> Use;
  for (unsigned I = 0; I < Regions.size(); ++I) {
    const CaptureRegion &R = Regions[I];
    // Judged where the capture begins and ends in this function, or begins
    // in an opener that returns with it open.
    bool LeftOpen =
        R.Ends.empty() && In.Own && (In.Own->Opens || In.Own->PausesAndResumes);
    if (Work[I].empty() || !R.Reached || (R.Ends.empty() && !LeftOpen) ||
        R.BeginLoc.isInvalid())
      continue;
    if (!Use)
      Use = graphUse(In.Def, In.Cat, In.Ctx);
    GraphUse Here = *Use;
    Here.LeftOpen = LeftOpen;
    llvm::append_range(Here.Launches, R.LaunchingEnds);
    llvm::sort(Here.Launches, [&](SourceLocation A, SourceLocation B) {
      return In.Ctx.getSourceManager().isBeforeInTranslationUnit(A, B);
    });
    if (!Here.Kept)
      Here.Kept = keptByCloser(R, In.Def, In.Cat, In.Ctx, Here.KeptText);
    danglingLocals(R, Work[I], Here, In.Def, In.Ctx, Out);
    if (!LeftOpen)
      freedBeforeLaunch(R, Work[I], Here, In.Def, In.Cat, In.Ctx, Out);
  }
  return Out;
}

} // namespace capture_lint::rules
