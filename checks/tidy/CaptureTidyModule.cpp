//===- CaptureTidyModule.cpp - The "capture" clang-tidy module ------------===//
//
// Registers the capture-* checks the C++ analysis reports, one per row of the
// registry (checks/registry/Checks.def). Linked into the capture-lint CLI,
// built as a plugin for `clang-tidy -load`, and compiled into capture-clangd.
//
//===----------------------------------------------------------------------===//

#include "CaptureCheckBase.h"
#include "ShapeBranchCheck.h"

#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyModuleRegistry.h"

#include <memory>

namespace capture_lint::tidy {

namespace {

/// The clang-tidy check of kind \p K: its own class where it has options
/// (ShapeBranchCheck), the shared one otherwise.
std::unique_ptr<clang::tidy::ClangTidyCheck>
makeCheck(CheckKind K, llvm::StringRef Name,
          clang::tidy::ClangTidyContext *Context) {
  if (K == CheckKind::ShapeBranch)
    return std::make_unique<ShapeBranchCheck>(Name, Context);
  return std::make_unique<CaptureCheckBase>(Name, Context, K);
}

class CaptureModule : public clang::tidy::ClangTidyModule {
public:
  void
  addCheckFactories(clang::tidy::ClangTidyCheckFactories &Factories) override {
    for (unsigned I = 0; I < NumCheckKinds; ++I) {
      auto K = static_cast<CheckKind>(I);
      Factories.registerCheckFactory(
          checkName(K),
          [K](llvm::StringRef Name, clang::tidy::ClangTidyContext *Context) {
            return makeCheck(K, Name, Context);
          });
    }
  }
};

} // namespace

} // namespace capture_lint::tidy

static clang::tidy::ClangTidyModuleRegistry::Add<
    capture_lint::tidy::CaptureModule>
    X("capture-module", "Checks for CUDA/HIP graph capture hazards.");

// Referenced by the CLI so the linker keeps this registration.
volatile int CaptureModuleAnchorSource = 0;
