//===- TuConstants.cpp - Values this translation unit alone decides -------===//

#include "TuConstants.h"
#include "capture_lint/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace capture_lint {

static bool inMainFile(const Decl *D) {
  const SourceManager &SM = D->getASTContext().getSourceManager();
  return SM.isInMainFile(SM.getExpansionLoc(D->getLocation()));
}

//===----------------------------------------------------------------------===//
// The index
//===----------------------------------------------------------------------===//

void TuConstants::buildIndex() {
  if (Built)
    return;
  Built = true;
  forEachUserDecl(Ctx, /*IntoClassTemplates=*/true, [&](const Decl *D) {
    if (D->isImplicit())
      return; // implicit copies keep every member's value
    if (const auto *RD = dyn_cast<CXXRecordDecl>(D))
      for (const FieldDecl *F : RD->fields())
        if (F->hasInClassInitializer())
          indexBody(F->getInClassInitializer(), nullptr);
    if (const auto *VD = dyn_cast<VarDecl>(D))
      indexBody(VD->getInit(), nullptr);
    const FunctionDecl *FD = D->getAsFunction();
    if (!FD || !FD->doesThisDeclarationHaveABody())
      return;
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
      for (const CXXCtorInitializer *I : Ctor->inits())
        if (I->isWritten())
          indexBody(I->getInit(), FD);
    indexBody(FD->getBody(), FD);
  });
}

/// Parents are visited before their children, so a call marks its callee
/// expression, and a read its operand, before they are met.
void TuConstants::indexBody(const Stmt *Body, const FunctionDecl *Fn) {
  llvm::SmallPtrSet<const Expr *, 16> Callees, Reads;
  llvm::SmallVector<const Stmt *, 64> Work = {Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    for (const Stmt *C : S->children())
      Work.push_back(C);
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      Callees.insert(Call->getCallee()->IgnoreParenImpCasts());
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        Calls[Callee->getCanonicalDecl()].push_back({Call, Fn});
    } else if (const auto *Cast = dyn_cast<ImplicitCastExpr>(S)) {
      if (Cast->getCastKind() == CK_LValueToRValue)
        Reads.insert(Cast->getSubExpr()->IgnoreParens());
    } else if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
      if (const auto *F = dyn_cast<FunctionDecl>(Ref->getDecl());
          F && !Callees.count(Ref))
        Escaped.insert(F->getCanonicalDecl());
    } else if (const auto *Member = dyn_cast<MemberExpr>(S)) {
      const ValueDecl *D = Member->getMemberDecl();
      if (const auto *F = dyn_cast<FieldDecl>(D); F && !Reads.count(Member))
        Written.insert(F);
      if (const auto *M = dyn_cast<CXXMethodDecl>(D);
          M && !Callees.count(Member))
        Escaped.insert(M->getCanonicalDecl());
    } else if (const auto *Over = dyn_cast<OverloadExpr>(S)) {
      if (Over->getName().isIdentifier())
        UnresolvedNames.insert(
            Over->getName().getAsIdentifierInfo()->getName());
    } else if (const auto *Dep = dyn_cast<CXXDependentScopeMemberExpr>(S)) {
      if (Dep->getMember().isIdentifier())
        UnresolvedNames.insert(
            Dep->getMember().getAsIdentifierInfo()->getName());
    }
  }
}

//===----------------------------------------------------------------------===//
// Constant members
//===----------------------------------------------------------------------===//

std::optional<int64_t> TuConstants::constructorsValue(const FieldDecl *F) {
  const auto *RD = cast<CXXRecordDecl>(F->getParent());
  std::optional<int64_t> Common;
  auto Merge = [&](const Expr *Init) {
    std::optional<int64_t> V = Init ? constantInt(Init, Ctx) : std::nullopt;
    if (!V || (Common && *Common != *V))
      return false;
    Common = V;
    return true;
  };
  const Expr *Default =
      F->hasInClassInitializer() ? F->getInClassInitializer() : nullptr;
  if (RD->needsImplicitDefaultConstructor() && !Merge(Default))
    return std::nullopt;
  for (const CXXConstructorDecl *C : RD->ctors()) {
    if (C->isDeleted() || C->isCopyOrMoveConstructor())
      continue; // copies keep the value
    if (C->isDefaulted()) {
      if (!Merge(Default))
        return std::nullopt;
      continue;
    }
    const FunctionDecl *Body = nullptr;
    if (!C->hasBody(Body) || !Body)
      return std::nullopt; // defined in another file
    const auto *Def = cast<CXXConstructorDecl>(Body);
    if (Def->isDelegatingConstructor())
      continue; // the target constructor sets it
    const Expr *Init = Default;
    for (const CXXCtorInitializer *I : Def->inits())
      if (I->getMember() == F)
        Init = I->getInit();
    if (!Merge(Init))
      return std::nullopt;
  }
  return Common;
}

std::optional<int64_t> TuConstants::constantMember(const FieldDecl *F) {
  if (!F)
    return std::nullopt;
  auto Cached = Members.find(F);
  if (Cached != Members.end())
    return Cached->second;
  std::optional<int64_t> V;
  QualType T = F->getType();
  const auto *RD = dyn_cast<CXXRecordDecl>(F->getParent());
  if (T->isIntegralOrEnumerationType() && !T.isVolatileQualified() &&
      F->getAccess() != AS_public && RD && !RD->isDependentContext() &&
      !isa<ClassTemplateSpecializationDecl>(RD) && !RD->isLambda() &&
      !RD->isUnion()) {
    V = constructorsValue(F);
    if (V) {
      buildIndex();
      if (Written.count(F))
        V.reset();
    }
  }
  Members[F] = V;
  return V;
}

//===----------------------------------------------------------------------===//
// Callers' constants
//===----------------------------------------------------------------------===//

bool TuConstants::onlyCalledHere(const FunctionDecl *Def) {
  if (isa<CXXConstructorDecl, CXXDestructorDecl, CXXConversionDecl>(Def) ||
      Def->isMain() || Def->isOverloadedOperator() || Def->getNumParams() == 0)
    return false;
  const auto *Method = dyn_cast<CXXMethodDecl>(Def);
  if (Method && (Method->isVirtual() || Method->getParent()->isLambda()))
    return false;
  const FunctionDecl *Pattern = Def->getTemplateInstantiationPattern();
  bool Closed = !Def->isExternallyVisible();
  // No other file sees this template's body, so none instantiates it.
  if (!Closed && Pattern)
    Closed =
        Def->getTemplateSpecializationKind() == TSK_ImplicitInstantiation &&
        inMainFile(Pattern);
  // No other file can name a class this file defines.
  if (!Closed && Method && !Pattern)
    Closed = inMainFile(Method->getParent());
  if (!Closed)
    return false;
  buildIndex();
  if (Escaped.count(Def->getCanonicalDecl()))
    return false;
  return !(Def->getDeclName().isIdentifier() &&
           UnresolvedNames.count(Def->getName()));
}

ParamBindings TuConstants::computeBindings(const FunctionDecl *Def) {
  ParamBindings Out;
  if (!onlyCalledHere(Def))
    return Out;
  auto It = Calls.find(Def->getCanonicalDecl());
  if (It == Calls.end() || It->second.empty())
    return Out;
  const std::vector<Call> CallsHere = It->second;
  InProgress.insert(Def);
  for (unsigned I = 0; I < Def->getNumParams(); ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I);
    if (!passesIntegralValue(P->getType()))
      continue;
    std::optional<int64_t> Common;
    for (const Call &C : CallsHere) {
      unsigned Shift = isa<CXXOperatorCallExpr>(C.Expr) ? 1 : 0;
      std::optional<int64_t> V;
      if (I + Shift < C.Expr->getNumArgs())
        V = valueOf(C.Expr->getArg(I + Shift), C.Caller);
      if (!V || (Common && *Common != *V)) {
        Common.reset();
        break;
      }
      Common = V;
    }
    if (Common)
      Out.push_back({P, *Common});
  }
  InProgress.erase(Def);
  return Out;
}

const ParamBindings &TuConstants::callerBindings(const FunctionDecl *FD) {
  static const ParamBindings None;
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def)
    return None;
  auto Cached = Bindings.find(Def);
  if (Cached != Bindings.end())
    return Cached->second;
  ParamBindings B = computeBindings(Def);
  return Bindings[Def] = std::move(B);
}

std::optional<int64_t> TuConstants::valueOf(const Expr *E,
                                            const FunctionDecl *Caller) {
  if (!E)
    return std::nullopt;
  const Stmt *Body = Caller ? Caller->getBody() : nullptr;
  if (auto V = constantValueIn(E, Body, Ctx))
    return V;
  const Expr *Bare = ignoreForwarding(E);
  if (const auto *M = dyn_cast<MemberExpr>(Bare))
    return constantMember(dyn_cast<FieldDecl>(M->getMemberDecl()));
  const auto *Ref = dyn_cast<DeclRefExpr>(Bare);
  const auto *P = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  if (!P || !Caller || P->getDeclContext() != Caller ||
      InProgress.count(Caller))
    return std::nullopt;
  std::optional<int64_t> Bound;
  for (const Binding &B : callerBindings(Caller))
    if (B.Path.empty() && B.Param == P)
      Bound = B.Value;
  // The caller must pass on what it was given (checked last: a walk of its
  // body).
  if (Bound && !onlyReadIn(P, Body))
    Bound.reset();
  return Bound;
}

} // namespace capture_lint
