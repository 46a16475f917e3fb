//===- ShapeBranchCheck.cpp - capture-shape-branch ------------------------===//

#include "ShapeBranchCheck.h"

#include "llvm/ADT/StringExtras.h"

namespace capture_lint::tidy {

static std::string joinList(const std::vector<std::string> &L) {
  return llvm::join(L, ";");
}

ShapeBranchCheck::ShapeBranchCheck(llvm::StringRef Name,
                                   clang::tidy::ClangTidyContext *Context)
    : CaptureCheckBase(Name, Context, CheckKind::ShapeBranch) {}

void ShapeBranchCheck::storeOptions(
    clang::tidy::ClangTidyOptions::OptionMap &Opts) {
  CaptureCheckBase::storeOptions(Opts);
  Options.store(Opts, "ShapeFunctions",
                joinList(Settings.Analysis.ShapeFunctions));
  Options.store(Opts, "TensorClasses",
                joinList(Settings.Analysis.TensorClasses));
}

} // namespace capture_lint::tidy
