// Issue 23, item 9: a call that always fails under the capture (a sync, or
// an allocation the mode refuses) inside an error check that exits on
// failure: the code after the check runs only where no capture is active,
// so the first hazard is reported and the unreachable ones after it are not.
// In relaxed mode the allocation succeeds (eagerly), and the path goes on.
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

extern "C" void exit(int);
#define CK(call)                                                               \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess)                                                     \
      exit(1);                                                                 \
  } while (0)

void sync_then_free(cudaStream_t s, float *p, cudaGraph_t *g) {
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CK(cudaDeviceSynchronize());
  // CHECK: :[[@LINE-1]]:6: error: 'cudaDeviceSynchronize'
  cudaFree(p); // only reached without the capture: quiet
  CK(cudaStreamEndCapture(s, g));
}

void checked_directly(cudaStream_t s, float **p, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (cudaMalloc(p, 16) != cudaSuccess)
    // CHECK: :[[@LINE-1]]:7: error: 'cudaMalloc'
    exit(1);
  cudaStreamSynchronize(s); // only reached without the capture: quiet
  cudaStreamEndCapture(s, g);
}

void relaxed(cudaStream_t s, float **p, cudaGraph_t *g) {
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
  CK(cudaMalloc(p, 16));
  // CHECK: :[[@LINE-1]]:6: remark: 'cudaMalloc'
  CK(cudaFree(*p));
  // CHECK: :[[@LINE-1]]:6: warning: 'cudaFree'
  CK(cudaStreamEndCapture(s, g));
}
