//===- LegacyStreamCheck.h - capture-legacy-stream
//------------------------------------------------===//
//
// Work on the legacy default stream while a stream captures: <<<g, b>>>
// launches, async calls whose stream is defaulted, 0, nullptr, NULL,
// cudaStreamLegacy, and at::cuda::getDefaultCUDAStream. See
// docs/checks/capture-legacy-stream.md.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TIDY_LEGACYSTREAMCHECK_H
#define CAPTURE_LINT_TIDY_LEGACYSTREAMCHECK_H

#include "CaptureCheckBase.h"

namespace capture_lint::tidy {

class LegacyStreamCheck : public CaptureCheckBase {
public:
  LegacyStreamCheck(llvm::StringRef Name,
                    clang::tidy::ClangTidyContext *Context)
      : CaptureCheckBase(Name, Context, CheckKind::LegacyStream) {}
};

} // namespace capture_lint::tidy

#endif
