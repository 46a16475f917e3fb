//===- CallTargets.cpp - Which functions an indirect call may run ---------===//

#include "CallTargets.h"
#include "capture_lint/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace capture_lint {

/// The call operator of a user functor class (not a lambda, which
/// callableOf handles on its own), if it has exactly one.
static const FunctionDecl *functorCall(const Expr *E) {
  if (E->getType().isNull())
    return nullptr;
  const CXXRecordDecl *RD = E->getType()->getAsCXXRecordDecl();
  if (!RD || RD->isLambda() || !RD->hasDefinition() || !inUserCode(RD))
    return nullptr;
  const CXXMethodDecl *Found = nullptr;
  for (const CXXMethodDecl *M : RD->methods())
    if (M->getOverloadedOperator() == OO_Call) {
      if (Found)
        return nullptr;
      Found = M;
    }
  return Found;
}

const FunctionDecl *callableOf(const Expr *Arg) {
  for (unsigned Steps = 0; Arg && Steps < 16; ++Steps) {
    Arg = Arg->IgnoreParenImpCasts();
    if (const auto *L = dyn_cast<LambdaExpr>(Arg))
      return L->getCallOperator();
    if (const FunctionDecl *F = functorCall(Arg))
      return F;
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(Arg)) {
      Arg = M->getSubExpr();
      continue;
    }
    if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(Arg)) {
      Arg = B->getSubExpr();
      continue;
    }
    if (const auto *C = dyn_cast<CXXConstructExpr>(Arg)) {
      Arg = C->getNumArgs() > 0 ? C->getArg(0) : nullptr;
      continue;
    }
    if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(Arg)) {
      Arg = F->getSubExpr();
      continue;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(Arg)) {
      if (U->getOpcode() != UO_AddrOf)
        return nullptr;
      Arg = U->getSubExpr();
      continue;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Arg)) {
      if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
        return FD;
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (VD->isLocalVarDecl() && VD->getInit() &&
            !VD->getType()->isPointerType()) {
          Arg = VD->getInit();
          continue;
        }
      return nullptr;
    }
    return nullptr;
  }
  return nullptr;
}

/// The variable or member an expression names (`fp`, `this->fn_`, `s.fn`).
static const ValueDecl *holderOf(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_Deref)
    E = U->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
    E = A->getBase()->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return dyn_cast<VarDecl>(DRE->getDecl());
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return dyn_cast<FieldDecl>(ME->getMemberDecl());
  return nullptr;
}

void CallTargets::addValue(const ValueDecl *To, const Expr *Value) {
  if (To && Value)
    Assigned[To].push_back(Value);
}

void CallTargets::buildIndex() {
  Built = true;
  llvm::SmallVector<const Stmt *, 64> Work;
  forEachUserDecl(Ctx, /*IntoClassTemplates=*/false, [&](const Decl *D) {
    if (const auto *RD = dyn_cast<CXXRecordDecl>(D))
      for (const FieldDecl *F : RD->fields())
        if (F->hasInClassInitializer())
          addValue(F, F->getInClassInitializer());
    if (const auto *VD = dyn_cast<VarDecl>(D))
      addValue(VD, VD->getInit());
    const FunctionDecl *FD = D->getAsFunction();
    if (!FD)
      return;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
      for (const CXXMethodDecl *Base : allOverridden(MD))
        Overrides[Base].push_back(MD);
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
      for (const CXXCtorInitializer *I : Ctor->inits())
        if (I->getMember())
          addValue(I->getMember(), I->getInit());
    Work.push_back(FD->getBody());
  });
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
      addValue(holderOf(B->getLHS()), B->getRHS());
    else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
             Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
      addValue(holderOf(Op->getArg(0)), Op->getArg(1));
    else if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          addValue(VD, VD->getInit());
    if (const auto *C = dyn_cast<CXXConstructExpr>(S))
      CallSites[C->getConstructor()->getCanonicalDecl()].push_back(C);
    else if (const auto *C = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *F = directCallee(C))
        CallSites[F->getCanonicalDecl()].push_back(C);
    // An aggregate's fields given in braces (`ScopeGuard{[&] { ... }}`).
    if (const auto *List = dyn_cast<InitListExpr>(S);
        List && !List->isTypeDependent() && !List->getType().isNull())
      if (const CXXRecordDecl *RD = List->getType()->getAsCXXRecordDecl();
          RD && RD->isAggregate() && RD->getNumBases() == 0 && !RD->isUnion() &&
          List->isSemanticForm()) {
        unsigned I = 0;
        for (const FieldDecl *F : RD->fields())
          if (I < List->getNumInits())
            addValue(F, List->getInit(I++)); // null for none: skipped
      }
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
}

/// The argument \p Site passes to parameter \p Index of its callee.
static const Expr *argumentFor(const Expr *Site, unsigned Index) {
  if (const auto *C = dyn_cast<CXXConstructExpr>(Site))
    return Index < C->getNumArgs() ? C->getArg(Index) : nullptr;
  const auto *Call = cast<CallExpr>(Site);
  const FunctionDecl *F = directCallee(Call);
  unsigned Shift = argumentOffset(Call, F);
  return Index + Shift < Call->getNumArgs() ? Call->getArg(Index + Shift)
                                            : nullptr;
}

void CallTargets::addTarget(const Expr *Value,
                            std::vector<const FunctionDecl *> &Out,
                            llvm::SmallPtrSetImpl<const ValueDecl *> &Seen) {
  if (!Value)
    return;
  if (const FunctionDecl *F = callableOf(Value)) {
    if (std::find(Out.begin(), Out.end(), F) == Out.end())
      Out.push_back(F);
    return;
  }
  const ParmVarDecl *P = parameterOf(Value);
  const auto *Fn = P ? dyn_cast<FunctionDecl>(P->getDeclContext()) : nullptr;
  if (!Fn || !Seen.insert(P).second)
    return;
  auto Sites = CallSites.find(Fn->getCanonicalDecl());
  if (Sites == CallSites.end())
    return;
  for (const Expr *Site : Sites->second)
    addTarget(argumentFor(Site, P->getFunctionScopeIndex()), Out, Seen);
}

void CallTargets::targetsOfValue(const ValueDecl *V,
                                 std::vector<const FunctionDecl *> &Out,
                                 std::optional<int64_t> Index) {
  llvm::SmallPtrSet<const ValueDecl *, 4> Seen;
  auto Add = [&](const Expr *E) { addTarget(E, Out, Seen); };
  auto It = Assigned.find(V);
  if (It == Assigned.end()) {
    // A global the index did not list: an explicit specialization of a
    // variable template (`template <> auto solve<float> = ssolve;`).
    const auto *VD = dyn_cast<VarDecl>(V);
    if (const Expr *Init = VD ? VD->getAnyInitializer() : nullptr)
      Add(Init);
    return;
  }
  for (const Expr *E : It->second) {
    if (const auto *List = dyn_cast<InitListExpr>(E->IgnoreParenImpCasts())) {
      if (Index && *Index >= 0 && *Index < List->getNumInits()) {
        Add(List->getInit(*Index)); // `table[0](s)` runs that entry
        continue;
      }
      for (const Expr *Init : List->inits())
        Add(Init); // a table of functions
      continue;
    }
    Add(E);
  }
}

/// The class of the object \p Value makes a holder point or refer to:
/// `&gemm`, `new Gemm(...)`, `std::make_unique<Gemm>(...)`, a smart pointer
/// built from one of these, or an object of a class type; null otherwise.
static const CXXRecordDecl *classGiven(const Expr *Value) {
  if (!Value)
    return nullptr;
  Value = Value->IgnoreParenImpCasts();
  if (const auto *C = dyn_cast<CXXConstructExpr>(Value)) {
    // A smart pointer from `new T` or from another smart pointer.
    if (C->getNumArgs() == 1)
      return classGiven(C->getArg(0));
    return C->getConstructor()->getParent();
  }
  if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(Value))
    return classGiven(B->getSubExpr());
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(Value))
    return classGiven(M->getSubExpr());
  if (const auto *U = dyn_cast<UnaryOperator>(Value);
      U && U->getOpcode() == UO_AddrOf) {
    const auto *DRE = dyn_cast<DeclRefExpr>(U->getSubExpr()->IgnoreParens());
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || VD->getType()->isReferenceType())
      return nullptr;
    return VD->getType()->getAsCXXRecordDecl();
  }
  if (const auto *New = dyn_cast<CXXNewExpr>(Value))
    return New->isArray() ? nullptr
                          : New->getAllocatedType()->getAsCXXRecordDecl();
  if (const auto *Call = dyn_cast<CallExpr>(Value)) {
    const FunctionDecl *F = Call->getDirectCallee();
    if (!F || !F->getIdentifier() ||
        !llvm::is_contained({"make_unique", "make_shared"}, F->getName()))
      return nullptr;
    const TemplateArgumentList *Args = F->getTemplateSpecializationArgs();
    if (!Args || Args->size() == 0 ||
        Args->get(0).getKind() != TemplateArgument::Type)
      return nullptr;
    return Args->get(0).getAsType()->getAsCXXRecordDecl();
  }
  return nullptr;
}

std::optional<llvm::SmallVector<const CXXRecordDecl *, 2>>
CallTargets::dynamicClasses(const Expr *Object) {
  const Expr *E = Object->IgnoreParenImpCasts();
  bool Holder = true; // E names what holds the object, not the object
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
      Op && (Op->getOperator() == OO_Arrow || Op->getOperator() == OO_Star) &&
      Op->getNumArgs() >= 1)
    E = Op->getArg(0)->IgnoreParenImpCasts(); // a smart pointer
  else if (const auto *U = dyn_cast<UnaryOperator>(E);
           U && U->getOpcode() == UO_Deref)
    E = U->getSubExpr()->IgnoreParenImpCasts();
  else
    Holder = E->getType()->isPointerType();
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || isa<ParmVarDecl>(VD))
    return std::nullopt; // a parameter or member: its callers decide
  if (!Holder && !VD->getType()->isReferenceType())
    if (const CXXRecordDecl *RD = VD->getType()->getAsCXXRecordDecl())
      return llvm::SmallVector<const CXXRecordDecl *, 2>{RD}; // an object
  if (!Built)
    buildIndex();
  auto It = Assigned.find(VD);
  if (It == Assigned.end() || It->second.empty())
    return std::nullopt;
  llvm::SmallVector<const CXXRecordDecl *, 2> Classes;
  for (const Expr *Value : It->second) {
    if (isa<CXXNullPtrLiteralExpr>(Value->IgnoreParenImpCasts()))
      continue;
    const CXXRecordDecl *RD = classGiven(Value);
    if (!RD)
      return std::nullopt;
    if (!llvm::is_contained(Classes, RD))
      Classes.push_back(RD);
  }
  if (Classes.empty())
    return std::nullopt;
  return Classes;
}

std::vector<const FunctionDecl *>
CallTargets::indirectTargets(const CallExpr *Call, bool *Exact) {
  std::vector<const FunctionDecl *> Out;
  if (Exact)
    *Exact = false;
  if (const auto *M = dyn_cast<CXXMemberCallExpr>(Call)) {
    const CXXMethodDecl *MD = M->getMethodDecl();
    const auto *Callee =
        dyn_cast<MemberExpr>(M->getCallee()->IgnoreParenImpCasts());
    if (!MD || !MD->isVirtual() || (Callee && Callee->hasQualifier()))
      return Out;
    if (auto Classes = dynamicClasses(M->getImplicitObjectArgument())) {
      for (const CXXRecordDecl *RD : *Classes)
        if (const CXXMethodDecl *Final =
                RD->hasDefinition()
                    ? MD->getCorrespondingMethodInClass(RD->getDefinition(),
                                                        /*MayBeBase=*/true)
                    : nullptr)
          if (!llvm::is_contained(Out, Final))
            Out.push_back(Final);
      if (!Out.empty() && Exact)
        *Exact = true;
      if (!Out.empty())
        return Out;
    }
    if (!Built)
      buildIndex();
    auto It = Overrides.find(MD->getCanonicalDecl());
    if (It != Overrides.end())
      Out.assign(It->second.begin(), It->second.end());
    return Out;
  }
  const Expr *Holder = nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call)) {
    // A callable object's operator() in a library type (std::function).
    const FunctionDecl *F = directCallee(Op);
    if (Op->getOperator() != OO_Call || !F || inUserCode(F) ||
        Op->getNumArgs() == 0)
      return Out;
    Holder = Op->getArg(0);
  } else if (!directCallee(Call)) {
    Holder = Call->getCallee(); // a function pointer
  }
  const ValueDecl *V = holderOf(Holder);
  if (!V)
    return Out;
  if (!Built)
    buildIndex();
  std::optional<int64_t> Index;
  if (const auto *A =
          dyn_cast_or_null<ArraySubscriptExpr>(Holder->IgnoreParenImpCasts()))
    Index = constantInt(A->getIdx(), Ctx);
  targetsOfValue(V, Out, Index);
  return Out;
}

bool runsHeldCallable(const CXXDestructorDecl *D) {
  const FunctionDecl *Def = nullptr;
  if (!D || !D->hasBody(Def) || !Def)
    return false;
  bool Runs = false;
  walkStatements(Def->getBody(), [&](const Stmt *S) {
    if (Runs || isa<LambdaExpr>(S))
      return false;
    const auto *Call = dyn_cast<CallExpr>(S);
    const Expr *Holder = nullptr;
    if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(Call);
        Op && Op->getOperator() == OO_Call && Op->getNumArgs() > 0)
      Holder = Op->getArg(0);
    else if (Call && !directCallee(Call))
      Holder = Call->getCallee();
    const auto *F = dyn_cast_or_null<FieldDecl>(holderOf(Holder));
    Runs = F && F->getParent() == D->getParent();
    return true;
  });
  return Runs;
}

/// Whether a value of type \p T can be called: a function pointer or an
/// object with an operator() (a lambda, std::function, a functor).
static bool isCallableType(QualType T) {
  T = T.getNonReferenceType();
  if (T->isFunctionPointerType() || T->isFunctionType())
    return true;
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return false;
  DeclarationName Call =
      RD->getASTContext().DeclarationNames.getCXXOperatorName(OO_Call);
  return !RD->lookup(Call).empty();
}

/// Adds the callable \p Arg gives to \p Out; false when \p Arg is callable
/// but what it runs is not known here (a parameter passed on).
static bool addCallableArgument(const Expr *Arg,
                                std::vector<const FunctionDecl *> &Out) {
  if (const FunctionDecl *F = callableOf(Arg)) {
    if (!llvm::is_contained(Out, F))
      Out.push_back(F);
    return true;
  }
  return !Arg || !isCallableType(Arg->getType());
}

bool CallTargets::addConstructionCallables(
    const Expr *E, unsigned Depth, std::vector<const FunctionDecl *> &Out) {
  if (!E || Depth > 4)
    return false;
  E = E->IgnoreImplicit();
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    return addConstructionCallables(M->getSubExpr(), Depth, Out);
  if (const auto *C = dyn_cast<ConditionalOperator>(E))
    return addConstructionCallables(C->getTrueExpr(), Depth, Out) &&
           addConstructionCallables(C->getFalseExpr(), Depth, Out);
  if (const auto *C = dyn_cast<CXXConstructExpr>(E)) {
    if (C->getConstructor()->isCopyOrMoveConstructor() && C->getNumArgs() == 1)
      return addConstructionCallables(C->getArg(0), Depth, Out);
    return llvm::all_of(C->arguments(), [&](const Expr *Arg) {
      return addCallableArgument(Arg, Out);
    });
  }
  if (const auto *List = dyn_cast<InitListExpr>(E))
    return llvm::all_of(List->inits(), [&](const Expr *Init) {
      return addCallableArgument(Init, Out);
    });
  // Built and returned by a user function: each of its return values.
  const auto *Call = dyn_cast<CallExpr>(E);
  const FunctionDecl *Callee = Call ? directCallee(Call) : nullptr;
  const FunctionDecl *Def = nullptr;
  if (!Callee || !inUserCode(Callee) || !Callee->hasBody(Def) || !Def)
    return false;
  bool Known = true, Any = false;
  walkStatements(Def->getBody(), [&](const Stmt *S) {
    if (isa<LambdaExpr>(S) || !Known)
      return false; // a lambda's returns are its own
    if (const auto *R = dyn_cast<ReturnStmt>(S)) {
      Any = true;
      Known = addConstructionCallables(R->getRetValue(), Depth + 1, Out);
    }
    return true;
  });
  return Known && Any;
}

std::optional<std::vector<const FunctionDecl *>>
CallTargets::constructionCallables(const Expr *Init) {
  std::vector<const FunctionDecl *> Out;
  if (!addConstructionCallables(Init, 0, Out))
    return std::nullopt;
  return Out;
}

std::vector<const FunctionDecl *>
CallTargets::callableArguments(const CallExpr *Call) {
  std::vector<const FunctionDecl *> Out;
  for (const Expr *Arg : Call->arguments()) {
    const FunctionDecl *F = callableOf(Arg);
    // Lambdas and functors only: a named function passed to a library call
    // is as likely data (a comparator) as work, and has its own findings.
    if (F && isa<CXXMethodDecl>(F) && inUserCode(F))
      Out.push_back(F);
  }
  return Out;
}

} // namespace capture_lint
