//===- ApiMatch.cpp - Matching calls against catalog entries --------------===//

#include "capture_lint/ApiMatch.h"
#include "capture_lint/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

using namespace clang;

namespace capture_lint {

static bool conditionHolds(const CallExpr *Call, const ArgCondition &C) {
  if (C.Index >= Call->getNumArgs())
    return false;
  const NamedDecl *D = namedDeclOf(Call->getArg(C.Index));
  if (!D)
    return false;
  std::string Plain = D->getNameAsString();
  std::string Qualified = D->getQualifiedNameAsString();
  for (const std::string &Want : C.AnyOf)
    if (Want == Plain || Want == Qualified)
      return true;
  return false;
}

/// `&local` (not a pointer), or a local array: memory on the host.
static bool isHostAddress(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    if (U->getOpcode() == UO_AddrOf)
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(U->getSubExpr()->IgnoreParenImpCasts()))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          return !VD->getType()->isPointerType();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return VD->getType()->isArrayType() && VD->isLocalVarDecl();
  return false;
}

static bool typeNamesAny(const Expr *E, const std::vector<std::string> &Any) {
  std::string T = E->getType().getCanonicalType().getAsString();
  for (const std::string &Want : Any)
    if (T.find(Want) != std::string::npos)
      return true;
  return false;
}

const ApiEntry *matchApi(const CallExpr *Call, const Catalog &Cat) {
  if (!Call)
    return nullptr;
  const FunctionDecl *FD = directCallee(Call);
  if (!FD)
    return nullptr;
  const ApiEntry *E = Cat.findApi(listedName(FD, Cat));
  if (!E)
    return nullptr;
  if (E->WhenArg && !conditionHolds(Call, *E->WhenArg))
    return nullptr;
  unsigned N = Call->getNumArgs();
  if (E->HostPointerArg && (*E->HostPointerArg >= N ||
                            !isHostAddress(Call->getArg(*E->HostPointerArg))))
    return nullptr;
  if (E->NullArg &&
      (*E->NullArg >= N ||
       !Call->getArg(*E->NullArg)
            ->IgnoreParenImpCasts()
            ->isNullPointerConstant(FD->getASTContext(),
                                    Expr::NPC_ValueDependentIsNotNull)))
    return nullptr;
  if (E->UnlessArgType && E->UnlessArgType->Index < N &&
      typeNamesAny(Call->getArg(E->UnlessArgType->Index),
                   E->UnlessArgType->AnyOf))
    return nullptr;
  return E;
}

bool copiesDeviceToHost(const CallExpr *Call, const ApiEntry &Entry,
                        const ASTContext &Ctx) {
  if (!Entry.CopyDstArg || *Entry.CopyDstArg >= Call->getNumArgs())
    return false;
  if (!Entry.CopyKindArg)
    return true;
  if (*Entry.CopyKindArg >= Call->getNumArgs())
    return false;
  auto Kind = constantInt(Call->getArg(*Entry.CopyKindArg), Ctx);
  return Kind && *Kind == 2; // cudaMemcpyDeviceToHost, hipMemcpyDeviceToHost
}

const ValueDecl *deviceToHostDestination(const CallExpr *Call,
                                         const ApiEntry &Entry,
                                         const ASTContext &Ctx) {
  if (!copiesDeviceToHost(Call, Entry, Ctx))
    return nullptr;
  return accessedDeclOf(Call->getArg(*Entry.CopyDstArg));
}

} // namespace capture_lint
