//===- ShapeBranchCheck.cpp - capture-shape-branch ------------------------===//

#include "ShapeBranchCheck.h"
#include "capture_lint/ProjectConfig.h"

#include "llvm/ADT/StringExtras.h"

namespace capture_lint::tidy {

static std::string joinList(const std::vector<std::string> &L) {
  return llvm::join(L, ";");
}

ShapeBranchCheck::ShapeBranchCheck(llvm::StringRef Name,
                                   clang::tidy::ClangTidyContext *Context)
    : CaptureCheckBase(Name, Context, CheckKind::ShapeBranch) {
  AnalysisOptions Defaults;
  Analysis.ShapeFunctions = splitCatalogList(
      Options.get("ShapeFunctions", joinList(Defaults.ShapeFunctions)));
  Analysis.TensorClasses = splitCatalogList(
      Options.get("TensorClasses", joinList(Defaults.TensorClasses)));
}

void ShapeBranchCheck::storeOptions(
    clang::tidy::ClangTidyOptions::OptionMap &Opts) {
  CaptureCheckBase::storeOptions(Opts);
  Options.store(Opts, "ShapeFunctions", joinList(Analysis.ShapeFunctions));
  Options.store(Opts, "TensorClasses", joinList(Analysis.TensorClasses));
}

} // namespace capture_lint::tidy
