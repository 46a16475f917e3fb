//===- Main.cpp - capture-clangd: clangd 19 with the capture checks -------===//
//
// Stock clangd cannot load clang-tidy plugins, so capture-clangd is clangd's
// own entry point (Debian ships it as libclangdMain.a) linked together with
// the capture module. Point an editor's clangd path at this binary and enable
// the checks in .clangd (see docs/editors.md). Findings show at their
// severity: errors as errors (FindingLevel.h). Python documents get the
// Python analysis's findings from the same server (PythonDocuments.h).
//
//===----------------------------------------------------------------------===//

#include "FindingLevel.h"
#include "OutputJoin.h"
#include "Version.h"

#include <cstring>
#include <string>
#include <vector>

namespace capture_lint::tidy {
const bool EmitFindingsAtTheirSeverity = true;
} // namespace capture_lint::tidy

namespace clang::clangd {
int clangdMain(int argc, char *argv[]);
} // namespace clang::clangd

/// Gives clangd's parsing threads 64 MB stacks (WorkerStacks.cpp).
void useLargeWorkerStacks();
/// Repairs changes outside a document before clangd reads them, serves
/// Python documents, translates an nvcc project's database
/// (StdinFilter.cpp, DocumentMirror.h, PythonDocuments.h,
/// ClangReadyDatabase.h).
void filterStandardInput(const char *Argv0, bool UserNamedDatabase);

// Keeps the capture module's registration in the link.
extern volatile int CaptureModuleAnchorSource;
static int CaptureModuleAnchor = CaptureModuleAnchorSource;

int main(int argc, char *argv[]) {
  (void)CaptureModuleAnchor;
  useLargeWorkerStacks();
  // clangd looks for clang's builtin headers next to its own binary, which
  // this is not: pass LLVM 19's resource directory unless the user did.
  std::vector<char *> Args(argv, argv + argc);
  bool HasResourceDir = false, Delimited = false, NamesDatabase = false;
  for (int I = 1; I < argc; ++I) {
    const char *A = argv[I] + (std::strncmp(argv[I], "--", 2) == 0);
    HasResourceDir |= std::strncmp(A, "-resource-dir", 13) == 0;
    NamesDatabase |= std::strncmp(A, "-compile-commands-dir", 21) == 0;
    bool Style = std::strncmp(A, "-input-style", 12) == 0;
    Delimited |= Style && (std::strstr(A, "delimited") ||
                           (I + 1 < argc && !std::strchr(A, '=') &&
                            std::strcmp(argv[I + 1], "delimited") == 0));
  }
  if (!Delimited) { // the filter reads Content-Length frames only
    capture_lint::joinStandardOutput();
    filterStandardInput(argv[0], NamesDatabase);
  }
  std::string ResourceDir =
      std::string("--resource-dir=") + CAPTURE_LINT_RESOURCE_DIR;
  if (!HasResourceDir)
    Args.insert(Args.begin() + 1, ResourceDir.data());
  Args.push_back(nullptr);
  int Status =
      clang::clangd::clangdMain(static_cast<int>(Args.size()) - 1, Args.data());
  capture_lint::finishStandardOutput();
  return Status;
}
