//===- AllocationCheck.h - capture-allocation
//------------------------------------------------===//
//
// Allocation and library set-up inside a capture region: cudaMalloc and
// friends, cuMemAlloc*, hipMalloc*, cublasCreate, cufftPlan*,
// curandCreateGenerator, ncclCommInitRank. cudaMallocAsync/cudaFreeAsync on the
// capturing stream are legal and not reported. See
// docs/checks/capture-allocation.md.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TIDY_ALLOCATIONCHECK_H
#define CAPTURE_LINT_TIDY_ALLOCATIONCHECK_H

#include "CaptureCheckBase.h"

namespace capture_lint::tidy {

class AllocationCheck : public CaptureCheckBase {
public:
  AllocationCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context)
      : CaptureCheckBase(Name, Context, CheckKind::Allocation) {}
};

} // namespace capture_lint::tidy

#endif
