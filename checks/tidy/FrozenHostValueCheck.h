//===- FrozenHostValueCheck.h - capture-frozen-host-value -------*- C++ -*-===//
//
// Host state a capture region updates (a counter, a flag value, a step
// number) and passes to captured work by value: the graph records the value
// it has at capture time and every replay passes it again.
// See docs/checks/capture-frozen-host-value.md.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TIDY_FROZENHOSTVALUECHECK_H
#define CAPTURE_LINT_TIDY_FROZENHOSTVALUECHECK_H

#include "CaptureCheckBase.h"

namespace capture_lint::tidy {

class FrozenHostValueCheck : public CaptureCheckBase {
public:
  FrozenHostValueCheck(llvm::StringRef Name,
                       clang::tidy::ClangTidyContext *Context)
      : CaptureCheckBase(Name, Context, CheckKind::FrozenHostValue) {}
};

} // namespace capture_lint::tidy

#endif
