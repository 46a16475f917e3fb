//===- PathFacts.cpp - What the program proves about a region's inputs ----===//

#include "capture_lint/PathFacts.h"
#include "capture_lint/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace capture_lint {

/// `$` for a parameter or local, `$.a.b` through members, `$.f()` through
/// const methods without arguments; \p Root is the variable.
static std::optional<std::string> pathOf(const Expr *E,
                                         const ValueDecl *&Root) {
  if (!E)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || VD->hasGlobalStorage())
      return std::nullopt;
    Root = VD;
    return std::string("$");
  }
  if (const auto *M = dyn_cast<MemberExpr>(E)) {
    auto Base = pathOf(M->getBase(), Root);
    if (!Base || !M->getMemberDecl()->getIdentifier())
      return std::nullopt;
    return *Base + "." + M->getMemberDecl()->getName().str();
  }
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = Call->getMethodDecl();
    if (!MD || !MD->isConst() || Call->getNumArgs() != 0 ||
        !MD->getIdentifier())
      return std::nullopt;
    auto Base = pathOf(Call->getImplicitObjectArgument(), Root);
    if (!Base)
      return std::nullopt;
    return *Base + "." + MD->getName().str() + "()";
  }
  return std::nullopt;
}

/// An atom: a path tested as a truth value, or compared with an integer
/// constant. `!=`, `>=` and `<=` are written as the negation of `==`, `<`
/// and `>` (\p Negated is flipped).
static std::optional<std::string> atomOf(const Expr *E, const ASTContext &Ctx,
                                         const ValueDecl *&Root,
                                         bool &Negated) {
  E = E->IgnoreParenImpCasts();
  if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isComparisonOp()) {
    BinaryOperatorKind Op = B->getOpcode();
    auto K = constantInt(B->getRHS(), Ctx);
    auto P = K ? pathOf(B->getLHS(), Root) : std::nullopt;
    if (!P) {
      K = constantInt(B->getLHS(), Ctx);
      P = K ? pathOf(B->getRHS(), Root) : std::nullopt;
      Op = BinaryOperator::reverseComparisonOp(Op);
    }
    if (!P)
      return std::nullopt;
    std::string V = std::to_string(*K);
    switch (Op) {
    case BO_NE:
      Negated = !Negated;
      [[fallthrough]];
    case BO_EQ:
      return *P + "==" + V;
    case BO_GE:
      Negated = !Negated;
      [[fallthrough]];
    case BO_LT:
      return *P + "<" + V;
    case BO_LE:
      Negated = !Negated;
      [[fallthrough]];
    case BO_GT:
      return *P + ">" + V;
    default:
      return std::nullopt;
    }
  }
  QualType T = E->getType();
  if (!T->isBooleanType() && !T->isIntegerType() && !T->isPointerType())
    return std::nullopt;
  return pathOf(E, Root);
}

static void addFact(ParamBindings &Out, Binding B) {
  if (!llvm::is_contained(Out, B))
    Out.push_back(std::move(B));
}

void addConditionFacts(const Expr *Cond, bool Value, const ASTContext &Ctx,
                       ParamBindings &Out) {
  if (!Cond)
    return;
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Cond);
      U && U->getOpcode() == UO_LNot)
    return addConditionFacts(U->getSubExpr(), !Value, Ctx, Out);
  if (const auto *B = dyn_cast<BinaryOperator>(Cond)) {
    if ((B->getOpcode() == BO_LAnd && Value) ||
        (B->getOpcode() == BO_LOr && !Value)) {
      addConditionFacts(B->getLHS(), Value, Ctx, Out);
      addConditionFacts(B->getRHS(), Value, Ctx, Out);
      return;
    }
  }
  const ValueDecl *Root = nullptr;
  bool Negated = false;
  if (auto Atom = atomOf(Cond, Ctx, Root, Negated))
    addFact(Out, {Root, Value != Negated, *Atom});
}

/// The value of atom \p Atom over \p Root from a constant binding of the
/// variable itself (`$`, `$==3`, `$<3`, `$>3`).
static std::optional<bool> fromValue(llvm::StringRef Atom, int64_t V) {
  if (Atom == "$")
    return V != 0;
  int64_t K = 0;
  if (Atom.consume_front("$==") && !Atom.getAsInteger(10, K))
    return V == K;
  if (Atom.consume_front("$<") && !Atom.getAsInteger(10, K))
    return V < K;
  if (Atom.consume_front("$>") && !Atom.getAsInteger(10, K))
    return V > K;
  return std::nullopt;
}

std::optional<bool> evaluateWith(const Expr *Cond, const ParamBindings &Facts,
                                 const ASTContext &Ctx) {
  if (!Cond || Facts.empty())
    return std::nullopt;
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Cond);
      U && U->getOpcode() == UO_LNot) {
    auto V = evaluateWith(U->getSubExpr(), Facts, Ctx);
    return V ? std::optional<bool>(!*V) : std::nullopt;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(Cond); B && B->isLogicalOp()) {
    bool And = B->getOpcode() == BO_LAnd;
    auto L = evaluateWith(B->getLHS(), Facts, Ctx);
    if (L && *L != And)
      return !And; // false && x, true || x
    auto R = evaluateWith(B->getRHS(), Facts, Ctx);
    if (R && *R != And)
      return !And;
    if (L && R)
      return And;
    return std::nullopt;
  }
  const ValueDecl *Root = nullptr;
  bool Negated = false;
  auto Atom = atomOf(Cond, Ctx, Root, Negated);
  if (!Atom)
    return std::nullopt;
  for (const Binding &F : Facts) {
    if (F.Param != Root)
      continue;
    if (F.Path == *Atom)
      return (F.Value != 0) != Negated;
    if (F.Path.empty())
      if (auto V = fromValue(*Atom, F.Value))
        return *V != Negated;
  }
  return std::nullopt;
}

void dropWrittenFacts(ParamBindings &Facts, const Stmt *Body) {
  if (Facts.empty() || !Body)
    return;
  llvm::SmallPtrSet<const ValueDecl *, 8> Written;
  auto Write = [&](const Expr *E) {
    // The variable at the root of `x`, `x.a.b`, `x->a`, `x[i]`.
    while (E) {
      E = E->IgnoreParenImpCasts();
      if (const auto *M = dyn_cast<MemberExpr>(E))
        E = M->getBase();
      else if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
        E = A->getBase();
      else
        break;
    }
    if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E))
      Written.insert(DRE->getDecl());
  };
  llvm::SmallVector<const Stmt *, 64> Work = {Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
      Write(B->getLHS());
    else if (const auto *U = dyn_cast<UnaryOperator>(S);
             U && (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf))
      Write(U->getSubExpr());
    else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
             Op && Op->isAssignmentOp() && Op->getNumArgs() > 0)
      Write(Op->getArg(0));
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  llvm::erase_if(Facts, [&](const Binding &F) {
    return !F.Path.empty() && Written.count(F.Param);
  });
}

/// \p Callee's argument for parameter \p P at \p Call, as a path in the
/// caller: its root and its text (`$.cfg`).
static std::optional<std::string> argumentPath(const CallExpr *Call,
                                               const FunctionDecl *Callee,
                                               const ValueDecl *P,
                                               const ValueDecl *&Root) {
  const auto *Param = dyn_cast_or_null<ParmVarDecl>(P);
  if (!Param || Param->getDeclContext() != Callee)
    return std::nullopt;
  unsigned Shift = argumentOffset(Call, Callee);
  unsigned I = Param->getFunctionScopeIndex() + Shift;
  if (I >= Call->getNumArgs())
    return std::nullopt;
  return pathOf(Call->getArg(I), Root);
}

/// A fact about \p Callee's parameter, as one about the caller's variable
/// \p Call passes for it.
static std::optional<Binding> toCaller(const Binding &F, const CallExpr *Call,
                                       const FunctionDecl *Callee) {
  if (F.Path.empty())
    return std::nullopt;
  const ValueDecl *Root = nullptr;
  auto Prefix = argumentPath(Call, Callee, F.Param, Root);
  if (!Prefix)
    return std::nullopt;
  return Binding{Root, F.Value, *Prefix + F.Path.substr(1)};
}

ParamBindings translateFacts(const ParamBindings &Facts, const CallExpr *Call,
                             const FunctionDecl *Callee,
                             const ASTContext &Ctx) {
  (void)Ctx;
  ParamBindings Out;
  if (!Call || !Callee)
    return Out;
  for (const ParmVarDecl *P : Callee->parameters()) {
    const ValueDecl *Root = nullptr;
    auto Prefix = argumentPath(Call, Callee, P, Root);
    if (!Prefix)
      continue;
    for (const Binding &F : Facts) {
      if (F.Path.empty() || F.Param != Root ||
          !llvm::StringRef(F.Path).starts_with(*Prefix))
        continue;
      llvm::StringRef Rest = llvm::StringRef(F.Path).drop_front(Prefix->size());
      if (!Rest.empty() && !llvm::is_contained({'.', '=', '<', '>'}, Rest[0]))
        continue; // `$.cfgx` is not under `$.cfg`
      addFact(Out, {P, F.Value, "$" + Rest.str()});
    }
  }
  return Out;
}

/// Whether \p S stops the program or leaves by an exception: abort, exit,
/// a [[noreturn]] call, a throw, or a block ending in one.
static bool stops(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *C = dyn_cast<CompoundStmt>(S))
    return !C->body_empty() && stops(C->body_back());
  if (const auto *E = dyn_cast<ExprWithCleanups>(S))
    return stops(E->getSubExpr());
  if (isa<CXXThrowExpr>(S))
    return true;
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *F = Call->getDirectCallee();
    return F && (F->isNoReturn() ||
                 (F->getIdentifier() &&
                  llvm::is_contained({"abort", "exit", "_Exit", "quick_exit"},
                                     F->getName())));
  }
  return false;
}

/// The conjuncts of \p E (`A && B && C`).
static void conjuncts(const Expr *E, llvm::SmallVectorImpl<const Expr *> &Out) {
  E = E->IgnoreParenImpCasts();
  if (const auto *B = dyn_cast<BinaryOperator>(E);
      B && B->getOpcode() == BO_LAnd) {
    conjuncts(B->getLHS(), Out);
    conjuncts(B->getRHS(), Out);
    return;
  }
  Out.push_back(E);
}

/// What `if (C) stop;` in \p Callee proves after \p Call returns: !C, in
/// the caller's variables.
static void addStopFacts(const Expr *C, const CallExpr *Call,
                         const FunctionDecl *Callee, const ASTContext &Ctx,
                         const ParamBindings &Known, ParamBindings &Out) {
  llvm::SmallVector<const Expr *, 4> Parts;
  conjuncts(C, Parts);
  // !(A && B): each conjunct's facts in the caller; the one not known to
  // hold is false once all the others are.
  std::vector<ParamBindings> PartFacts;
  for (const Expr *Part : Parts) {
    ParamBindings Callee_, Caller;
    addConditionFacts(Part, true, Ctx, Callee_);
    for (const Binding &F : Callee_)
      if (auto B = toCaller(F, Call, Callee))
        Caller.push_back(*B);
    if (Caller.size() != Callee_.size() || Caller.empty())
      return; // a conjunct about something else: nothing is proved
    PartFacts.push_back(std::move(Caller));
  }
  auto Holds = [&](const ParamBindings &Facts) {
    return llvm::all_of(Facts, [&](const Binding &F) {
      return llvm::is_contained(Known, F) || llvm::is_contained(Out, F);
    });
  };
  unsigned Unknown = PartFacts.size();
  for (unsigned I = 0; I < PartFacts.size(); ++I)
    if (!Holds(PartFacts[I])) {
      if (Unknown != PartFacts.size())
        return; // two unknown conjuncts: no single fact follows
      Unknown = I;
    }
  if (Unknown == PartFacts.size() || PartFacts[Unknown].size() != 1)
    return; // all hold (the program stopped), or an unknown conjunction
  Binding Negated = PartFacts[Unknown].front();
  Negated.Value = !Negated.Value;
  addFact(Out, std::move(Negated));
}

void addValidationFacts(const CallExpr *Call, const ASTContext &Ctx,
                        const ParamBindings &Known, ParamBindings &Out) {
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  const FunctionDecl *Def = nullptr;
  if (!Callee || !Callee->hasBody(Def) || !Def ||
      Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
    return;
  const auto *Body = dyn_cast<CompoundStmt>(Def->getBody());
  if (!Body)
    return;
  for (const Stmt *S : Body->body())
    if (const auto *If = dyn_cast<IfStmt>(S);
        If && !If->getElse() && !If->hasInitStorage() && stops(If->getThen()))
      addStopFacts(If->getCond(), Call, Def, Ctx, Known, Out);
}

/// The expression a predicate returns: its body is `return E;`.
static const Expr *returnedExpr(const FunctionDecl *Def) {
  const auto *Body =
      Def ? dyn_cast_or_null<CompoundStmt>(Def->getBody()) : nullptr;
  if (!Body || Body->size() != 1)
    return nullptr;
  const auto *Ret = dyn_cast<ReturnStmt>(Body->body_front());
  return Ret ? Ret->getRetValue() : nullptr;
}

void addPredicateFacts(const Expr *Cond, bool Value, const ASTContext &Ctx,
                       ParamBindings &Out) {
  if (!Cond)
    return;
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Cond);
      U && U->getOpcode() == UO_LNot)
    return addPredicateFacts(U->getSubExpr(), !Value, Ctx, Out);
  if (const auto *B = dyn_cast<BinaryOperator>(Cond);
      B && B->getOpcode() == BO_LAnd && Value) {
    addPredicateFacts(B->getLHS(), true, Ctx, Out);
    addPredicateFacts(B->getRHS(), true, Ctx, Out);
    return;
  }
  // `use` initialised with `graph_compatible(net)`, or the call itself.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Cond))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->isLocalVarDecl() && VD->getInit() &&
        VD->getType()->isBooleanType())
      Cond = VD->getInit()->IgnoreParenImpCasts();
  const auto *Call = dyn_cast<CallExpr>(Cond);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  const FunctionDecl *Def = nullptr;
  if (!Callee || !Callee->hasBody(Def) || !Def)
    return;
  const Expr *Returned = returnedExpr(Def);
  if (!Returned)
    return;
  ParamBindings InCallee;
  addConditionFacts(Returned, Value, Ctx, InCallee);
  for (const Binding &F : InCallee)
    if (auto B = toCaller(F, Call, Def))
      addFact(Out, std::move(*B));
}

} // namespace capture_lint
