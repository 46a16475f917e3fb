//===- NativeBindings.cpp - C++ functions Python calls by name ------------===//
//
// TORCH_LIBRARY, TORCH_LIBRARY_FRAGMENT and TORCH_LIBRARY_IMPL define a
// function taking the `torch::Library &m` and a static
// `torch::detail::TorchLibraryInit` object naming that function, the
// operator namespace (a string literal) and, for _IMPL, the dispatch key.
// PYBIND11_MODULE(name, m) defines `pybind11_init_<name>(pybind11::module_ &)`.
// The bindings are the `m.def` / `m.impl` calls in those functions whose
// first argument names the operator or function and whose second gives the
// C++ function: `&fn`, `fn`, `TORCH_FN(fn)` (a template argument), or a
// lambda. And every `extern "C"` function a library exports, which Python
// calls through ctypes or cffi by its name.
//
//===----------------------------------------------------------------------===//

#include "capture_lint/NativeBindings.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <map>

using namespace clang;

namespace capture_lint {

namespace {

/// Whether \p RD is the class \p Name of namespace \p Ns (at any depth).
bool isClassIn(const CXXRecordDecl *RD, llvm::StringRef Ns,
               llvm::StringRef Name) {
  if (!RD || RD->getName() != Name)
    return false;
  for (const DeclContext *C = RD->getDeclContext(); C; C = C->getParent())
    if (const auto *N = dyn_cast<NamespaceDecl>(C); N && N->getName() == Ns)
      return true;
  return false;
}

/// What one TORCH_LIBRARY* or PYBIND11_MODULE block registers into.
struct Registrar {
  enum { Torch, Pybind } Kind = Torch;
  std::string Name; // the operator namespace, or the module
  std::string How;  // "TORCH_LIBRARY_IMPL(myext, CUDA)"
  std::string DispatchKey;
};

/// The first string literal under \p E ("" when none).
std::string firstString(const Stmt *E) {
  if (const auto *S = dyn_cast_or_null<StringLiteral>(E))
    return S->getCharByteWidth() == 1 ? S->getString().str() : "";
  if (E)
    for (const Stmt *C : E->children())
      if (std::string S = firstString(C); !S.empty())
        return S;
  return "";
}

/// The function \p E gives to a registration: a lambda, a function named
/// (`&fn`, `fn`), or one passed as a template argument (`TORCH_FN(fn)`).
/// Calls are looked into for their arguments only (`torch::dispatch(key,
/// &fn)` gives fn, not dispatch).
class BoundFunction : public RecursiveASTVisitor<BoundFunction> {
public:
  const FunctionDecl *Found = nullptr;

  bool TraverseCallExpr(CallExpr *C) {
    for (Expr *A : C->arguments())
      if (!TraverseStmt(A))
        return false;
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) { return found(L->getCallOperator()); }
  bool VisitDeclRefExpr(DeclRefExpr *D) {
    return found(dyn_cast<FunctionDecl>(D->getDecl()));
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *C) {
    const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
        C->getType()->getAsCXXRecordDecl());
    if (Spec)
      for (const TemplateArgument &A : Spec->getTemplateArgs().asArray())
        if (A.getKind() == TemplateArgument::Declaration)
          if (!found(dyn_cast<FunctionDecl>(A.getAsDecl())))
            return false;
    return true;
  }

private:
  /// Stops the walk at the first function.
  bool found(const FunctionDecl *FD) {
    if (!FD || Found)
      return !Found;
    Found = FD;
    return false;
  }
};

/// "op" of "op", "ns::op(Tensor x) -> Tensor" or "op.overload(...)"; the
/// namespace written before "::" into \p Ns.
std::string operatorName(llvm::StringRef Schema, std::string &Ns) {
  llvm::StringRef Name = Schema.split('(').first.trim();
  if (Name.contains("::")) {
    auto [Before, After] = Name.rsplit("::");
    Ns = Before.str();
    Name = After;
  }
  return Name.split('.').first.str();
}

class Finder : public RecursiveASTVisitor<Finder> {
public:
  explicit Finder(const SourceManager &SM) : SM(SM) {}

  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) &&
        SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }
  bool VisitVarDecl(VarDecl *V) {
    const auto *Init = dyn_cast_or_null<CXXConstructExpr>(
        V->getInit() ? V->getInit()->IgnoreImplicit() : nullptr);
    if (!Init || !isClassIn(V->getType()->getAsCXXRecordDecl(), "detail",
                            "TorchLibraryInit"))
      return true;
    torchInit(*Init);
    return true;
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    llvm::StringRef Name =
        FD->getIdentifier() ? FD->getName() : llvm::StringRef();
    if (FD->doesThisDeclarationHaveABody() &&
        Name.consume_front("pybind11_init_") && !Name.empty())
      Registrars[FD->getCanonicalDecl()] = {
          Registrar::Pybind, Name.str(), "PYBIND11_MODULE(" + Name.str() + ")",
          ""};
    return true;
  }

  std::map<const FunctionDecl *, Registrar> Registrars;

private:
  /// The namespace, kind and dispatch key a TorchLibraryInit is made with.
  void torchInit(const CXXConstructExpr &Init) {
    BoundFunction Fn;
    std::string Ns, Kind = "TORCH_LIBRARY", Key;
    for (const Expr *A : Init.arguments()) {
      if (const auto *E = dyn_cast<DeclRefExpr>(A->IgnoreImplicit());
          E && isa<EnumConstantDecl>(E->getDecl())) {
        llvm::StringRef Enumerator = E->getDecl()->getName();
        if (Enumerator == "IMPL" || Enumerator == "FRAGMENT")
          Kind = "TORCH_LIBRARY_" + Enumerator.str();
      }
      if (Ns.empty())
        Ns = firstString(A);
      if (!Fn.Found)
        Fn.TraverseStmt(const_cast<Expr *>(A));
      if (Key.empty())
        Key = dispatchKey(A);
    }
    if (Ns.empty() || !Fn.Found)
      return;
    std::string How = Kind + "(" + Ns + (Key.empty() ? "" : ", " + Key) + ")";
    Registrars[Fn.Found->getCanonicalDecl()] = {Registrar::Torch, Ns, How, Key};
  }

  /// The `c10::DispatchKey::K` named under \p E ("" when none).
  static std::string dispatchKey(const Stmt *E) {
    if (const auto *D = dyn_cast_or_null<DeclRefExpr>(E))
      if (const auto *C = dyn_cast<EnumConstantDecl>(D->getDecl()))
        if (const auto *En = dyn_cast<EnumDecl>(C->getDeclContext());
            En && En->getName() == "DispatchKey")
          return C->getName().str();
    if (E)
      for (const Stmt *C : E->children())
        if (std::string K = dispatchKey(C); !K.empty())
          return K;
    return "";
  }

  const SourceManager &SM;
};

/// The `m.def(...)` / `m.impl(...)` calls under a registrar's body.
class Registrations : public RecursiveASTVisitor<Registrations> {
public:
  Registrations(const Registrar &R, std::vector<NativeBinding> &Out)
      : R(R), Out(Out) {}

  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *C) {
    const CXXMethodDecl *M = C->getMethodDecl();
    if (!M || !M->getIdentifier() || C->getNumArgs() < 2)
      return true;
    llvm::StringRef Method = M->getName();
    const CXXRecordDecl *Class = M->getParent();
    bool Torch = R.Kind == Registrar::Torch &&
                 (Method == "def" || Method == "impl") &&
                 isClassIn(Class, "torch", "Library");
    bool Pybind = R.Kind == Registrar::Pybind && Method == "def" &&
                  (isClassIn(Class, "pybind11", "module_") ||
                   isClassIn(Class, "pybind11", "module"));
    if (!Torch && !Pybind)
      return true;
    std::string Written = firstString(C->getArg(0));
    BoundFunction Fn;
    Fn.TraverseStmt(C->getArg(1));
    if (Written.empty() || !Fn.Found)
      return true;
    std::string Key = R.Name + "." + Written;
    if (Torch) {
      std::string Ns = R.Name; // or the one the schema names
      std::string Op = operatorName(Written, Ns);
      Key = "torch.ops." + Ns + "." + Op;
    }
    Out.push_back({Key, Fn.Found, C->getExprLoc(), R.How, R.DispatchKey});
    return true;
  }

private:
  const Registrar &R;
  std::vector<NativeBinding> &Out;
};

/// The `extern "C"` functions defined in user code at namespace scope of
/// \p DC (host functions: a kernel is no library export).
void externCFunctions(const DeclContext *DC, const SourceManager &SM,
                      std::vector<NativeBinding> &Out) {
  for (const Decl *D : DC->decls()) {
    if (SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      continue;
    if (isa<LinkageSpecDecl, NamespaceDecl>(D)) {
      externCFunctions(cast<DeclContext>(D), SM, Out);
      continue;
    }
    const auto *FD = dyn_cast<FunctionDecl>(D);
    if (!FD || !FD->isExternC() || !FD->doesThisDeclarationHaveABody() ||
        !FD->isExternallyVisible() || !FD->getIdentifier() ||
        FD->hasAttr<CUDAGlobalAttr>())
      continue;
    Out.push_back({"extern-c:" + FD->getName().str(), FD, FD->getLocation(),
                   "extern \"C\"", ""});
  }
}

} // namespace

bool runsOnCudaTensors(llvm::StringRef DispatchKey) {
  return DispatchKey.empty() || DispatchKey.contains("CUDA") ||
         DispatchKey.starts_with("Composite") || DispatchKey == "Autograd";
}

std::vector<NativeBinding> findNativeBindings(ASTContext &Ctx) {
  std::vector<NativeBinding> Out;
  externCFunctions(Ctx.getTranslationUnitDecl(), Ctx.getSourceManager(), Out);
  // Most translation units register nothing: skip the walk unless they can.
  if (Ctx.Idents.find("TorchLibraryInit") == Ctx.Idents.end() &&
      Ctx.Idents.find("module_") == Ctx.Idents.end())
    return Out;
  Finder F(Ctx.getSourceManager());
  F.TraverseDecl(Ctx.getTranslationUnitDecl());
  for (const auto &[Fn, R] : F.Registrars)
    if (const FunctionDecl *Def = Fn->getDefinition())
      Registrations(R, Out).TraverseStmt(Def->getBody());
  return Out;
}

} // namespace capture_lint
