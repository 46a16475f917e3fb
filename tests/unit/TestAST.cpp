//===- TestAST.cpp - Building small ASTs for unit tests -------------------===//

#include "TestAST.h"

#include "clang/AST/ASTContext.h"
#include "clang/Tooling/Tooling.h"

namespace capture_lint::test {

const char *Prelude = R"(
typedef struct CUstream_st *cudaStream_t;
typedef struct CUgraph_st *cudaGraph_t;
enum cudaError_t { cudaSuccess = 0 };
enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal = 0,
  cudaStreamCaptureModeThreadLocal = 1, cudaStreamCaptureModeRelaxed = 2 };
enum cudaStreamCaptureStatus { cudaStreamCaptureStatusNone = 0,
  cudaStreamCaptureStatusActive = 1 };
extern "C" {
cudaError_t cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode);
cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t *);
cudaError_t cudaStreamIsCapturing(cudaStream_t, cudaStreamCaptureStatus *);
cudaError_t cudaDeviceSynchronize();
}
void mark(int);
)";

std::unique_ptr<clang::ASTUnit> parse(const std::string &Code) {
  return clang::tooling::buildASTFromCodeWithArgs(
      std::string(Prelude) + Code, {"-std=c++17", "-fsyntax-only"}, "t.cpp");
}

const clang::FunctionDecl *function(clang::ASTUnit &AST, llvm::StringRef Name) {
  for (const clang::Decl *D :
       AST.getASTContext().getTranslationUnitDecl()->decls())
    if (const auto *FD = llvm::dyn_cast<clang::FunctionDecl>(D))
      if (FD->getName() == Name && FD->hasBody())
        return FD;
  return nullptr;
}

void forEachMark(clang::ASTUnit &AST, const clang::FunctionDecl *FD,
                 llvm::function_ref<void(int, const FlowState &)> Visit) {
  RegionFinder RF(FD, FD->getBody(), AST.getASTContext(), builtinCatalog(),
                  /*CalleeMode=*/false);
  RF.forEachStatement([&](const clang::Stmt *S, const FlowState &St, bool) {
    const auto *Call = llvm::dyn_cast<clang::CallExpr>(S);
    if (!Call || !Call->getDirectCallee() ||
        Call->getDirectCallee()->getName() != "mark")
      return;
    auto N = Call->getArg(0)->getIntegerConstantExpr(AST.getASTContext());
    Visit(static_cast<int>(N->getExtValue()), St);
  });
}

const Catalog &builtinCatalog() {
  static Catalog *Cat = [] {
    auto *C = new Catalog();
    C->addBuiltin();
    return C;
  }();
  return *Cat;
}

} // namespace capture_lint::test
