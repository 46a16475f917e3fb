// Issue 11, item 4: a capture mode held in a local that is never written is
// known; one whose address is taken is not.
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

void relaxed_local(cudaStream_t s, cudaGraph_t *g, void **p) {
  auto mode = cudaStreamCaptureModeRelaxed;
  cudaStreamBeginCapture(s, mode);
  cudaMalloc(p, 64);
  // CHECK: :[[@LINE-1]]:3: remark: 'cudaMalloc' allocates device memory: in a relaxed-mode capture it is allowed
  cudaStreamEndCapture(s, g);
}

void choose_mode(cudaStreamCaptureMode *m);

void written_local(cudaStream_t s, cudaGraph_t *g, void **p) {
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  choose_mode(&mode); // may change it
  cudaStreamBeginCapture(s, mode);
  cudaMalloc(p, 64);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaMalloc' allocates device memory: in a capture whose mode is not a constant
  cudaStreamEndCapture(s, g);
}

// Issue 23, item 8: a branch on the region's own mode variable (a local
// initialised with a constant, never written) takes the side the constant
// selects.
void mode_branch(cudaStream_t s, cudaGraph_t *g, void **p) {
  cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal;
  cudaStreamBeginCapture(s, mode);
  if (mode == cudaStreamCaptureModeRelaxed)
    cudaMalloc(p, 4); // never in this global capture: quiet
  else
    cudaMallocAsync(p, 4, s);
  cudaStreamEndCapture(s, g);
}
