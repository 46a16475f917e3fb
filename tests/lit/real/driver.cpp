// The real driver API header (cuda.h) from a .cpp file with default flags.
// REQUIRES: real-cuda
// RUN: not %capture-lint --quiet %s \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda.h>

void capture(CUstream s, CUdeviceptr d, void *h) {
  CUgraph g;
  CUdeviceptr p;
  cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED);
  cuMemAlloc(&p, 64);
  // CHECK: :[[@LINE-1]]:3: remark: 'cuMemAlloc' allocates device memory: in a relaxed-mode capture it is allowed: it runs once
  cuMemcpyDtoH(h, d, 64);
  // CHECK: :[[@LINE-1]]:3: error: 'cuMemcpyDtoH' copies device memory to the host synchronously
  cuCtxSynchronize();
  // CHECK: :[[@LINE-1]]:3: error: 'cuCtxSynchronize' waits for all work in the context
  cuMemAllocAsync(&p, 64, s);
  cuStreamEndCapture(s, &g);
}
