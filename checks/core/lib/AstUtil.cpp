//===- AstUtil.cpp - Small AST helpers for the capture analysis -----------===//

#include "capture_lint/AstUtil.h"
#include "capture_lint/Catalog.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Index/USRGeneration.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <mutex>

using namespace clang;

namespace capture_lint {

/// The one function among \p Decls (an unresolved name's candidates in a
/// template), or the first when none has a user body; null for several.
template <typename Range>
static const FunctionDecl *uniqueCandidate(Range Decls) {
  const FunctionDecl *First = nullptr;
  unsigned Candidates = 0;
  bool UserBody = false;
  for (const NamedDecl *D : Decls) {
    const FunctionDecl *FD = D->getUnderlyingDecl()->getAsFunction();
    if (!FD)
      return nullptr;
    const SourceManager &SM = FD->getASTContext().getSourceManager();
    UserBody |= FD->hasBody() && !SM.isInSystemHeader(FD->getLocation());
    First = First ? First : FD;
    ++Candidates;
  }
  return Candidates == 1 || !UserBody ? First : nullptr;
}

const FunctionDecl *directCallee(const CallExpr *Call) {
  if (!Call)
    return nullptr;
  if (const FunctionDecl *FD = Call->getDirectCallee())
    return FD;
  const Expr *Callee =
      Call->getCallee() ? Call->getCallee()->IgnoreParenImpCasts() : nullptr;
  if (!Callee)
    return nullptr;
  // In a template: `helper(x)`, `this->flush(x)` with dependent arguments.
  if (const auto *Name = dyn_cast<UnresolvedLookupExpr>(Callee))
    return uniqueCandidate(Name->decls());
  if (const auto *Member = dyn_cast<UnresolvedMemberExpr>(Callee))
    return uniqueCandidate(Member->decls());
  // A callable object called with dependent arguments (`f(T{})`, a generic
  // lambda `l(x)`): its class's one operator().
  if (isa<DeclRefExpr, MemberExpr>(Callee) && !Callee->isTypeDependent())
    if (const CXXRecordDecl *RD = Callee->getType()->getAsCXXRecordDecl();
        RD && RD->hasDefinition()) {
      ASTContext &Ctx = RD->getASTContext();
      return uniqueCandidate(
          RD->lookup(Ctx.DeclarationNames.getCXXOperatorName(OO_Call)));
    }
  return nullptr;
}

const FunctionDecl *calleeOf(const Stmt *S) {
  if (const auto *Call = dyn_cast<CallExpr>(S))
    return directCallee(Call);
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(S))
    return Construct->getConstructor();
  return nullptr;
}

std::string catalogName(const FunctionDecl *FD) {
  if (!FD)
    return "";
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  PrintingPolicy Policy(FD->getASTContext().getLangOpts());
  Policy.SuppressTemplateArgsInCXXConstructors = true;
  Policy.SuppressUnwrittenScope = true; // drop inline namespaces
  FD->printQualifiedName(OS, Policy);
  OS.flush();
  // printQualifiedName prints class template arguments (std::vector<int>);
  // the catalog names templates without them.
  return withoutTemplateArguments(Name);
}

std::string listedName(const FunctionDecl *FD, const Catalog &Cat) {
  if (!FD)
    return "";
  // Constructors, destructors, operators and conversions: always printed.
  if (FD->getDeclName().isIdentifier() && !Cat.mayList(FD->getName()))
    return "";
  return catalogName(FD);
}

SourceLocation fileLoc(SourceLocation L, const SourceManager &SM) {
  if (L.isInvalid() || L.isFileID())
    return L;
  return SM.getFileLoc(L);
}

std::string writtenText(const Expr *E, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(E->getSourceRange()), SM,
      Ctx.getLangOpts());
  if (Range.isInvalid())
    return "";
  bool Invalid = false;
  StringRef Text = Lexer::getSourceText(Range, SM, Ctx.getLangOpts(), &Invalid);
  return Invalid || Text.size() > 200 ? "" : Text.str();
}

std::string sourceText(const Expr *E, const ASTContext &Ctx) {
  if (!E)
    return "";
  std::string Written = writtenText(E, Ctx);
  if (!Written.empty())
    return Written;
  // A whole expression inside one macro argument: use its spelling.
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = CharSourceRange::getTokenRange(
      SM.getSpellingLoc(E->getBeginLoc()), SM.getSpellingLoc(E->getEndLoc()));
  bool Invalid = false;
  StringRef Text = Lexer::getSourceText(Range, SM, Ctx.getLangOpts(), &Invalid);
  if (Invalid || Text.size() > 200)
    return "";
  return Text.str();
}

const Expr *unwrap(const Expr *E) {
  while (E) {
    const Expr *Next = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(Next))
      Next = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(Next))
      Next = B->getSubExpr();
    else if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(Next))
      Next = F->getSubExpr();
    else if (const auto *C = dyn_cast<CXXConstructExpr>(Next)) {
      if (C->getNumArgs() >= 1 && !C->getArg(0)->isDefaultArgument() &&
          (C->getNumArgs() == 1 || C->getArg(1)->isDefaultArgument()))
        Next = C->getArg(0);
    } else if (const auto *D = dyn_cast<CXXDefaultArgExpr>(Next))
      Next = D->getExpr();
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

const NamedDecl *namedDeclOf(const Expr *E) {
  E = unwrap(E);
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E))
    return DRE->getDecl();
  if (const auto *ME = dyn_cast_or_null<MemberExpr>(E))
    return ME->getMemberDecl();
  return nullptr;
}

const ValueDecl *baseDeclOf(const Expr *E) {
  while (E) {
    E = E->IgnoreParenCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->getOpcode() == UO_AddrOf || U->getOpcode() == UO_Deref) {
        E = U->getSubExpr();
        continue;
      }
      return nullptr;
    }
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      E = A->getBase();
      continue;
    }
    if (const auto *M = dyn_cast<CXXMemberCallExpr>(E)) {
      // buf.data()
      E = M->getImplicitObjectArgument();
      continue;
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
      // buf[i], *it
      if ((Op->getOperator() == OO_Subscript || Op->getOperator() == OO_Star) &&
          Op->getNumArgs() >= 1) {
        E = Op->getArg(0);
        continue;
      }
      return nullptr;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      // A member of this object is itself the thing; s.field, p->field
      // belong to s and p.
      if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
        return dyn_cast<FieldDecl>(ME->getMemberDecl());
      E = ME->getBase();
      continue;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(DRE->getDecl());
    return nullptr;
  }
  return nullptr;
}

const ValueDecl *accessedDeclOf(const Expr *E) {
  for (const Expr *Cur = E; Cur;) {
    Cur = Cur->IgnoreParenCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(Cur);
        U && (U->getOpcode() == UO_AddrOf || U->getOpcode() == UO_Deref)) {
      Cur = U->getSubExpr();
      continue;
    }
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(Cur)) {
      Cur = A->getBase();
      continue;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(Cur))
      if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl()))
        return FD;
    break;
  }
  return baseDeclOf(E);
}

bool namesDecl(const Expr *E, const ValueDecl *D) {
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return DRE->getDecl() == D;
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return ME->getMemberDecl() == D;
  return false;
}

std::optional<int64_t> constantInt(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  if (const auto *D = dyn_cast<CXXDefaultArgExpr>(E))
    E = D->getExpr();
  Expr::EvalResult R;
  if (E->EvaluateAsInt(R, Ctx))
    return R.Val.getInt().getExtValue();
  if (const auto *ECD = dyn_cast_or_null<EnumConstantDecl>(namedDeclOf(E)))
    return ECD->getInitVal().getExtValue();
  return std::nullopt;
}

bool onlyReadIn(const ValueDecl *VD, const Stmt *Body) {
  // A const object (or one seen through a const reference) is never written,
  // wherever it is passed: `const bool d = ...; invoke(std::forward(d))`.
  QualType T = VD->getType();
  if (const auto *R = T->getAs<LValueReferenceType>())
    T = R->getPointeeType();
  if (T.isConstQualified() && !T.isVolatileQualified())
    return true;
  ParentMap PM(const_cast<Stmt *>(Body));
  llvm::SmallVector<const Stmt *, 64> Work = {Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S);
        DRE && DRE->getDecl() == VD) {
      const Stmt *P = PM.getParentIgnoreParens(DRE);
      const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P);
      if (!Cast || Cast->getCastKind() != CK_LValueToRValue)
        return false;
    }
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return true;
}

/// The value of a const member read (`debug_synchronous`,
/// `Fixture::debug_synchronous`): its in-class initialiser, a constant, when
/// no constructor of its class initialises it otherwise.
static std::optional<int64_t> constMemberValue(const Expr *E,
                                               const ASTContext &Ctx) {
  const auto *M = E ? dyn_cast<MemberExpr>(E->IgnoreParenImpCasts()) : nullptr;
  const auto *F = M ? dyn_cast<FieldDecl>(M->getMemberDecl()) : nullptr;
  const auto *RD = F ? dyn_cast<CXXRecordDecl>(F->getParent()) : nullptr;
  if (!RD || !F->getType().isConstQualified())
    return std::nullopt;
  // A class template's specialisation instantiates a member's initialiser
  // only where a constructor uses it: read the template's own.
  if (!F->hasInClassInitializer() || !F->getInClassInitializer())
    if (const CXXRecordDecl *Pattern = RD->getTemplateInstantiationPattern()) {
      RD = Pattern;
      F = nullptr;
      for (const NamedDecl *D :
           Pattern->lookup(M->getMemberDecl()->getDeclName()))
        F = dyn_cast<FieldDecl>(D);
      if (!F || !F->getInClassInitializer() ||
          F->getInClassInitializer()->isValueDependent())
        return std::nullopt;
    }
  if (!F->hasInClassInitializer() || !F->getInClassInitializer())
    return std::nullopt;
  for (const CXXConstructorDecl *Ctor : RD->ctors())
    for (const CXXCtorInitializer *I : Ctor->inits())
      if (I->getMember() == F && I->isWritten())
        return std::nullopt;
  return constantInt(F->getInClassInitializer(), Ctx);
}

std::optional<int64_t> constantValueIn(const Expr *E, const Stmt *Body,
                                       const ASTContext &Ctx) {
  if (auto V = constantInt(E, Ctx))
    return V;
  if (auto V = constMemberValue(E, Ctx))
    return V;
  if (!E || !Body)
    return std::nullopt;
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !VD->isLocalVarDecl() || VD->isStaticLocal() ||
      VD->getType()->isReferenceType() || !VD->getInit())
    return std::nullopt;
  auto V = constantInt(VD->getInit(), Ctx);
  if (!V)
    V = constMemberValue(VD->getInit(), Ctx);
  if (!V || !onlyReadIn(VD, Body))
    return std::nullopt;
  return V;
}

std::optional<std::string> legacyStreamSpelling(const Expr *Arg,
                                                const ASTContext &Ctx) {
  if (!Arg)
    return std::nullopt;
  if (const auto *D = dyn_cast<CXXDefaultArgExpr>(Arg->IgnoreParens())) {
    const Expr *Def = D->getExpr();
    if (Def && Def->isNullPointerConstant(const_cast<ASTContext &>(Ctx),
                                          Expr::NPC_ValueDependentIsNotNull))
      return std::string("stream argument left at its default");
    return std::nullopt;
  }
  if (Arg->isValueDependent())
    return std::nullopt;
  // As written in the file (`cudaStreamLegacy`); inside a macro body, the
  // argument without the body's parentheses ("(stream)" spells as `0`).
  std::string Text = writtenText(Arg, Ctx);
  if (Text.empty())
    Text = sourceText(Arg->IgnoreParenImpCasts(), Ctx);
  if (Arg->isNullPointerConstant(const_cast<ASTContext &>(Ctx),
                                 Expr::NPC_ValueDependentIsNotNull))
    return Text.empty() ? std::string("null stream") : "'" + Text + "'";
  // cudaStreamLegacy and hipStreamLegacy are the handle value 1 cast to a
  // stream pointer.
  const Expr *Stripped = Arg->IgnoreParenImpCasts();
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(Stripped)) {
    if (Cast->getType()->isPointerType()) {
      if (auto V = constantInt(Cast->getSubExpr(), Ctx); V && *V == 1)
        return Text.empty() ? std::string("the legacy stream handle")
                            : "'" + Text + "'";
    }
  }
  if (Text == "cudaStreamLegacy" || Text == "hipStreamLegacy")
    return "'" + Text + "'";
  return std::nullopt;
}

std::string streamKey(const Expr *E) {
  if (!E)
    return "";
  E = unwrap(E);
  // An object converted to the handle it holds (a stream wrapper's
  // `operator cudaStream_t()`) names the stream the object names.
  if (const auto *Conv = dyn_cast<CXXMemberCallExpr>(E);
      Conv && isa_and_nonnull<CXXConversionDecl>(Conv->getMethodDecl()))
    return streamKey(Conv->getImplicitObjectArgument());
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return "d" + std::to_string(reinterpret_cast<uintptr_t>(
                     DRE->getDecl()->getCanonicalDecl()));
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    std::string Base = streamKey(ME->getBase());
    if (Base.empty())
      return "";
    return Base + "." +
           std::to_string(reinterpret_cast<uintptr_t>(
               ME->getMemberDecl()->getCanonicalDecl()));
  }
  if (isa<CXXThisExpr>(E))
    return "this";
  // An element at a literal index (streams[1]); any other index names no
  // particular stream.
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    const auto *Index = dyn_cast<IntegerLiteral>(unwrap(AS->getIdx()));
    std::string Base = streamKey(AS->getBase());
    if (!Index || Base.empty())
      return "";
    return Base + "[" + std::to_string(Index->getValue().getZExtValue()) + "]";
  }
  return "";
}

const FieldDecl *thisMember(const Expr *E) {
  const auto *ME = E ? dyn_cast<MemberExpr>(unwrap(E)) : nullptr;
  if (!ME || !isa<CXXThisExpr>(unwrap(ME->getBase())))
    return nullptr;
  return dyn_cast<FieldDecl>(ME->getMemberDecl());
}

std::string displayName(const FunctionDecl *FD) {
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    if (MD->getParent()->isLambda())
      return "lambda";
  return catalogName(FD);
}

void walkStatements(const Stmt *Root,
                    llvm::function_ref<bool(const Stmt *)> Visit) {
  llvm::SmallVector<const Stmt *, 32> Work = {Root};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || !Visit(S))
      continue;
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
}

bool bodyHas(const FunctionDecl *FD, unsigned Depth,
             llvm::function_ref<bool(const Stmt *)> Is,
             llvm::function_ref<bool(const FunctionDecl *)> Follow) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def)
    return false;
  bool Found = false;
  walkStatements(Def->getBody(), [&](const Stmt *S) {
    if (Found || isa<LambdaExpr>(S))
      return false;
    if (Is(S))
      Found = true;
    else if (const FunctionDecl *Callee = calleeOf(S);
             Callee && Depth && Callee != FD && Follow(Callee))
      Found = bodyHas(Callee, Depth - 1, Is, Follow);
    return !Found;
  });
  return Found;
}

SourceLocation callLoc(const Expr *Call) {
  if (isa<CXXMemberCallExpr>(Call))
    return Call->getExprLoc();
  return Call->getBeginLoc();
}

unsigned argumentOffset(const CallExpr *Call, const FunctionDecl *Callee) {
  return isa<CXXOperatorCallExpr>(Call) &&
                 isa_and_nonnull<CXXMethodDecl>(Callee)
             ? 1
             : 0;
}

bool passesIntegralValue(QualType T) {
  if (const auto *R = T->getAs<ReferenceType>()) {
    QualType Pointee = R->getPointeeType();
    if (!T->isRValueReferenceType() && !Pointee.isConstQualified())
      return false;
    T = Pointee;
  }
  return T->isIntegralOrEnumerationType() && !T.isVolatileQualified();
}

const Expr *ignoreForwarding(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    const auto *Fwd = dyn_cast<CallExpr>(E);
    const FunctionDecl *FD = Fwd ? directCallee(Fwd) : nullptr;
    if (!FD || !FD->isInStdNamespace() || !FD->getIdentifier() ||
        (FD->getName() != "forward" && FD->getName() != "move") ||
        Fwd->getNumArgs() != 1)
      return E;
    E = Fwd->getArg(0);
  }
  return E;
}

const ParmVarDecl *parameterOf(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    E = M->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *C = dyn_cast<CXXConstructExpr>(E);
      C && C->getNumArgs() == 1 &&
      C->getConstructor()->isCopyOrMoveConstructor())
    E = C->getArg(0)->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    if (U->getOpcode() == UO_Deref)
      E = U->getSubExpr()->IgnoreParenImpCasts();
  E = ignoreForwarding(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return dyn_cast<ParmVarDecl>(DRE->getDecl());
  return nullptr;
}

const ParmVarDecl *invokedParam(const CallExpr *Call) {
  auto ParamOf = parameterOf;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call)) {
    if (Op->getOperator() == OO_Call && Op->getNumArgs() > 0)
      return ParamOf(Op->getArg(0));
    return nullptr;
  }
  if (const auto *M = dyn_cast<CXXMemberCallExpr>(Call)) {
    const CXXMethodDecl *MD = M->getMethodDecl();
    if (MD && MD->getOverloadedOperator() == OO_Call)
      return ParamOf(M->getImplicitObjectArgument());
    return nullptr;
  }
  if (const FunctionDecl *FD = directCallee(Call))
    if (FD->isInStdNamespace() && FD->getIdentifier() &&
        FD->getName() == "invoke" && Call->getNumArgs() > 0)
      return ParamOf(Call->getArg(0));
  return ParamOf(Call->getCallee());
}

bool inUserCode(const Decl *D) {
  const SourceManager &SM = D->getASTContext().getSourceManager();
  return !SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation()));
}

/// Whether \p Dir, or a directory above it, is an include tree of a
/// toolkit: it holds the CUDA or HIP runtime header, or libtorch's.
static bool inToolkitTree(llvm::StringRef Dir) {
  static std::mutex Mu;
  static llvm::StringMap<bool> Known;
  std::lock_guard<std::mutex> Lock(Mu);
  llvm::SmallVector<std::string, 8> Seen;
  bool Result = false;
  for (llvm::StringRef D = Dir; !D.empty();
       D = llvm::sys::path::parent_path(D)) {
    if (auto It = Known.find(D); It != Known.end()) {
      Result = It->second;
      break;
    }
    Seen.push_back(D.str());
    auto Has = [&](llvm::StringRef Name) {
      llvm::SmallString<256> P(D);
      llvm::sys::path::append(P, Name);
      return llvm::sys::fs::exists(P);
    };
    if (Has("cuda_runtime_api.h") || Has("cuda_runtime.h") ||
        Has("hip/hip_runtime.h") || (Has("ATen") && Has("c10"))) {
      Result = true;
      break;
    }
  }
  for (const std::string &D : Seen)
    Known[D] = Result;
  return Result;
}

bool inToolchainCode(const Decl *D) {
  const SourceManager &SM = D->getASTContext().getSourceManager();
  SourceLocation Loc = SM.getExpansionLoc(D->getLocation());
  if (!SM.isInSystemHeader(Loc))
    return false;
  // The standard library's and the toolkits' namespaces, wherever they are.
  const DeclContext *Outer = nullptr;
  for (const DeclContext *C = D->getDeclContext(); C && !C->isTranslationUnit();
       C = C->getParent())
    if (isa<NamespaceDecl>(C))
      Outer = C;
  if (const auto *NS = dyn_cast_or_null<NamespaceDecl>(Outer);
      NS && NS->getIdentifier() &&
      llvm::is_contained(
          {"std", "__gnu_cxx", "thrust", "cub", "cuda", "rocprim", "hipcub"},
          NS->getName()))
    return true;
  llvm::SmallString<256> Path(SM.getFilename(Loc));
  if (Path.empty())
    return true; // a built-in or command-line buffer
  llvm::sys::fs::make_absolute(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  llvm::StringRef P = Path;
  if (P.starts_with("/usr/") || P.starts_with("/opt/rocm") ||
      P.contains("/lib/clang/") || P.contains("/include/c++/"))
    return true;
  return inToolkitTree(llvm::sys::path::parent_path(P));
}

void forEachUserDecl(const ASTContext &Ctx, bool IntoClassTemplates,
                     llvm::function_ref<void(const Decl *)> Visit) {
  llvm::SmallVector<const DeclContext *, 16> Contexts = {
      Ctx.getTranslationUnitDecl()};
  while (!Contexts.empty()) {
    const DeclContext *DC = Contexts.pop_back_val();
    for (const Decl *D : DC->decls()) {
      if (!inUserCode(D))
        continue;
      if (const auto *CT = dyn_cast<ClassTemplateDecl>(D);
          CT && IntoClassTemplates)
        D = CT->getTemplatedDecl();
      if (isa<NamespaceDecl, LinkageSpecDecl, CXXRecordDecl>(D))
        Contexts.push_back(cast<DeclContext>(D));
      Visit(D);
    }
  }
}

std::string usrOf(const Decl *D) {
  llvm::SmallString<128> Usr;
  if (!D || index::generateUSRForDecl(D->getCanonicalDecl(), Usr))
    return "";
  return std::string(Usr);
}

llvm::SmallVector<const CXXMethodDecl *, 4>
allOverridden(const CXXMethodDecl *MD) {
  llvm::SmallVector<const CXXMethodDecl *, 4> Out;
  llvm::SmallVector<const CXXMethodDecl *, 4> Up(
      MD->overridden_methods().begin(), MD->overridden_methods().end());
  while (!Up.empty()) {
    const CXXMethodDecl *Base = Up.pop_back_val()->getCanonicalDecl();
    if (llvm::is_contained(Out, Base))
      continue;
    Out.push_back(Base);
    Up.append(Base->overridden_methods().begin(),
              Base->overridden_methods().end());
  }
  return Out;
}

const Stmt *scopeOfLocal(const VarDecl *Var, const Stmt *Body,
                         const ParentMap &PM) {
  const Stmt *Found = nullptr;
  walkStatements(Body, [&](const Stmt *S) {
    const auto *DS = dyn_cast<DeclStmt>(S);
    if (!DS || !llvm::is_contained(DS->decls(), Var))
      return true;
    for (const Stmt *P = PM.getParent(DS); P && !Found; P = PM.getParent(P))
      if (isa<CompoundStmt, ForStmt, CXXForRangeStmt, IfStmt, WhileStmt,
              SwitchStmt>(P))
        Found = P;
    return false;
  });
  return Found;
}

} // namespace capture_lint
