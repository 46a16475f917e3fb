// Debian's HIP headers (libamdhip64-dev) with capture-lint's default flags.
// REQUIRES: real-hip
// RUN: not %capture-lint --quiet %s \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <hip/hip_runtime.h>

__global__ void kernel(float *p) { p[threadIdx.x] = 0.f; }

void capture(hipStream_t s, float *d) {
  hipGraph_t g;
  float *p;
  hipStreamBeginCapture(s, hipStreamCaptureModeGlobal);
  hipLaunchKernelGGL(kernel, dim3(1), dim3(64), 0, 0, d);
  // CHECK: :[[@LINE-1]]:3: error: kernel launch 'kernel' runs on the legacy default stream ('0')
  hipLaunchKernelGGL(kernel, dim3(1), dim3(64), 0, s, d);
  hipMalloc(&p, 64);
  // CHECK: :[[@LINE-1]]:3: error: 'hipMalloc' allocates device memory
  hipStreamSynchronize(s);
  // CHECK: :[[@LINE-1]]:3: error: 'hipStreamSynchronize' waits for a stream to drain
  hipStreamEndCapture(s, &g);
}
