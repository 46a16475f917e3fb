// Issue 11, item 6: a region does not outlive the stream it captures: once
// the stream is destroyed, nothing after it is inside that capture.
// RUN: not %capture-lint --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

void abandoned_capture() {
  {
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    // CHECK: :[[@LINE-1]]:5: warning: capture of stream 's' begun here is never ended
    cudaStreamSynchronize(s);
    // CHECK: :[[@LINE-1]]:5: error: 'cudaStreamSynchronize'
    cudaStreamDestroy(s);
  }
  cudaDeviceSynchronize(); // the stream is gone: quiet
}
