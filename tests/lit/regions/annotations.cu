// capture_lint/annotations.h: functions declared to run under capture,
// vouched safe, or declared to synchronize, allocate or read back.
// RUN: not %capture-lint --quiet %s -- %cuda-mock %annotations \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <capture_lint/annotations.h>
#include <cuda_runtime.h>

CAPTURE_LINT_SYNCHRONIZES void vendor_flush(cudaStream_t s);
CAPTURE_LINT_ALLOCATES void *pool_grow(size_t bytes);
CAPTURE_LINT_READS_BACK int read_counter(const int *d);

CAPTURE_LINT_SAFE void checked_sync(cudaStream_t s) {
  cudaStreamSynchronize(s); // vouched: its callers do not look inside
}

struct Model {
  CAPTURE_LINT_CAPTURED void forward(cudaStream_t s, const int *d);
};

void Model::forward(cudaStream_t s, const int *d) {
  checked_sync(s);
  vendor_flush(s);
  // CHECK: :[[@LINE-1]]:3: error: 'vendor_flush' synchronizes: in a global-mode capture it fails and invalidates the capture
  // CHECK: :8:32: note: 'vendor_flush' is declared to synchronize here (annotation capture_lint::synchronizes)
  // CHECK: :[[@LINE-5]]:13: note: 'Model::forward' is declared to run under capture (annotation capture_lint::captured); checked as a global-mode capture
  if (read_counter(d) > 0)
    // CHECK: :[[@LINE-1]]:7: error: 'read_counter' reads a device value back to the host
    pool_grow(16);
  // CHECK: :[[@LINE-1]]:5: error: 'pool_grow' allocates device memory
}

void eager(cudaStream_t s) {
  vendor_flush(s); // not in a region: fine
}
