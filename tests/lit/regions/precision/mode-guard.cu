// Issue 11, item 9: a helper whose constructor switches the thread to
// relaxed capture mode and whose destructor restores it (PyTorch's
// CUDAStreamCaptureModeGuard) relaxes exactly the scope it guards.
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

struct CaptureModeGuard {
  explicit CaptureModeGuard(cudaStreamCaptureMode desired)
      : strictness_(desired) {
    cudaThreadExchangeStreamCaptureMode(&strictness_);
  }
  ~CaptureModeGuard() { cudaThreadExchangeStreamCaptureMode(&strictness_); }
  cudaStreamCaptureMode strictness_;
};

void grow_pool(void **p) {
  CaptureModeGuard g{cudaStreamCaptureModeRelaxed};
  cudaMalloc(p, 1 << 20);
}

void step(cudaStream_t s, cudaGraph_t *g, void **p) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  {
    CaptureModeGuard relaxed{cudaStreamCaptureModeRelaxed};
    cudaMalloc(p, 64);
    // CHECK: :[[@LINE-1]]:5: remark: 'cudaMalloc' allocates device memory: the thread is in relaxed capture mode here
  }
  cudaMalloc(p, 64);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaMalloc' allocates device memory: in a global-mode capture it fails
  grow_pool(p);
  // CHECK: :[[@LINE-1]]:3: remark: call to 'grow_pool' reaches 'cudaMalloc'
  cudaStreamEndCapture(s, g);
}
