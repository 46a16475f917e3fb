//===- SyncCallCheck.h - capture-sync-call
//------------------------------------------------===//
//
// Synchronization and queries inside a capture region: device, context, stream
// and event synchronize/query, synchronous cudaMemcpy/cudaMemset families,
// torch::cuda::synchronize, CUDAStream::synchronize/query.
// See docs/checks/capture-sync-call.md.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TIDY_SYNCCALLCHECK_H
#define CAPTURE_LINT_TIDY_SYNCCALLCHECK_H

#include "CaptureCheckBase.h"

namespace capture_lint::tidy {

class SyncCallCheck : public CaptureCheckBase {
public:
  SyncCallCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context)
      : CaptureCheckBase(Name, Context, CheckKind::SyncCall) {}
};

} // namespace capture_lint::tidy

#endif
