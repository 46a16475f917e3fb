// Issue 11, item 13: the destructor of a local created in a region runs at
// the end of its scope, still inside the region.
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

struct DeviceBuffer {
  void *p = nullptr;
  explicit DeviceBuffer(void *q) : p(q) {}
  ~DeviceBuffer() { cudaFree(p); }
};

void step(cudaStream_t s, cudaGraph_t *g, void *scratch) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  {
    DeviceBuffer tmp(scratch);
  }
  // CHECK: :[[@LINE-1]]:3: error: call to 'DeviceBuffer::~DeviceBuffer' reaches 'cudaFree'
  cudaStreamEndCapture(s, g);
  DeviceBuffer after(scratch); // destroyed after the region: quiet
}
