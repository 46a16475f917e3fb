// Issue 23, item 12: a third-party library included as a system header
// (-isystem) holds user-level code: calls from a region are followed into
// it, as into any header. The toolchain's own headers (CUDA's, HIP's, the
// standard library) are not entered: the catalog describes their calls.
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock -isystem %S/Inputs/thirdparty \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>
#include <graphlib/stream_pool.h>

void step(cudaStream_t s, void *d, void **p, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  graphlib::enqueue(d, s); // captured: quiet
  graphlib::drain(s);
  // CHECK: :[[@LINE-1]]:3: error: call to 'graphlib::drain' reaches 'cudaStreamSynchronize'
  // CHECK: stream_pool.h:6:37: note: 'cudaStreamSynchronize' is called here
  // CHECK: :[[@LINE-5]]:3: note: capture of stream 's' begins here
  graphlib::scratch(p);
  // CHECK: :[[@LINE-1]]:3: error: call to 'graphlib::scratch' reaches 'cudaMalloc'
  // CHECK: stream_pool.h:7:33: note: 'cudaMalloc' is called here
  // CHECK: :[[@LINE-9]]:3: note: capture of stream 's' begins here
  cudaStreamEndCapture(s, g);
}
