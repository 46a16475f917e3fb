//===- CaptureTidyModule.cpp - The "capture" clang-tidy module ------------===//
//
// Registers the capture-* checks. Linked into the capture-lint CLI, built as
// a plugin for `clang-tidy -load`, and compiled into capture-clangd.
//
//===----------------------------------------------------------------------===//

#include "AllocationCheck.h"
#include "FrozenHostValueCheck.h"
#include "HostReadCheck.h"
#include "LegacyStreamCheck.h"
#include "ShapeBranchCheck.h"
#include "SyncCallCheck.h"
#include "UnendedRegionCheck.h"

#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyModuleRegistry.h"

namespace capture_lint::tidy {

class CaptureModule : public clang::tidy::ClangTidyModule {
public:
  void
  addCheckFactories(clang::tidy::ClangTidyCheckFactories &Factories) override {
    Factories.registerCheck<SyncCallCheck>("capture-sync-call");
    Factories.registerCheck<HostReadCheck>("capture-host-read");
    Factories.registerCheck<AllocationCheck>("capture-allocation");
    Factories.registerCheck<ShapeBranchCheck>("capture-shape-branch");
    Factories.registerCheck<LegacyStreamCheck>("capture-legacy-stream");
    Factories.registerCheck<UnendedRegionCheck>("capture-unended-region");
    Factories.registerCheck<FrozenHostValueCheck>("capture-frozen-host-value");
  }
};

} // namespace capture_lint::tidy

static clang::tidy::ClangTidyModuleRegistry::Add<
    capture_lint::tidy::CaptureModule>
    X("capture-module", "Checks for CUDA/HIP graph capture hazards.");

// Referenced by the CLI so the linker keeps this registration.
volatile int CaptureModuleAnchorSource = 0;
