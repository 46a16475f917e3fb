//===- ShapeBranchCheck.h - capture-shape-branch ----------------*- C++ -*-===//
//
// Host control flow inside a capture region (if, switch, loop conditions,
// ?:) whose condition depends on a tensor shape query or on a value read
// back from the device, directly or through local variables. The capture
// records one path; replays repeat it whatever the shape or value.
// Options: ShapeFunctions, TensorClasses (';'-separated).
// See docs/checks/capture-shape-branch.md.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TIDY_SHAPEBRANCHCHECK_H
#define CAPTURE_LINT_TIDY_SHAPEBRANCHCHECK_H

#include "CaptureCheckBase.h"

namespace capture_lint::tidy {

class ShapeBranchCheck : public CaptureCheckBase {
public:
  ShapeBranchCheck(llvm::StringRef Name,
                   clang::tidy::ClangTidyContext *Context);
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;
};

} // namespace capture_lint::tidy

#endif
