//===- HostReadCheck.h - capture-host-read
//------------------------------------------------===//
//
// Device-to-host reads inside a capture region: Tensor::item, .cpu(),
// .to(kCPU), synchronous D2H copies, and host reads of memory that a captured
// async D2H copy in the same region writes only at replay. See
// docs/checks/capture-host-read.md.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TIDY_HOSTREADCHECK_H
#define CAPTURE_LINT_TIDY_HOSTREADCHECK_H

#include "CaptureCheckBase.h"

namespace capture_lint::tidy {

class HostReadCheck : public CaptureCheckBase {
public:
  HostReadCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context)
      : CaptureCheckBase(Name, Context, CheckKind::HostRead) {}
};

} // namespace capture_lint::tidy

#endif
