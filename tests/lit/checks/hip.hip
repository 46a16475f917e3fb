// RUN: not %capture-lint --quiet %s -- %hip-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <hip_runtime.h>

__global__ void kernel(float *p) {}

void capture(hipStream_t s, float *d, float *h) {
  hipGraph_t g;
  float *p;
  hipStreamBeginCapture(s, hipStreamCaptureModeGlobal);
  hipLaunchKernelGGL(kernel, dim3(1), dim3(64), 0, 0, d);
  // CHECK: :[[@LINE-1]]:22: error: kernel launch 'kernel' runs on the legacy default stream ('0') while stream 's' is capturing: with a blocking capture stream it fails with hipErrorStreamCaptureImplicit
  hipLaunchKernelGGL(kernel, dim3(1), dim3(64), 0, s, d); // fine
  hipMalloc((void **)&p, 64);
  // CHECK: :[[@LINE-1]]:3: error: 'hipMalloc' allocates device memory: in a global-mode capture it fails with hipErrorStreamCaptureUnsupported
  hipMemcpy(d, h, 64, hipMemcpyHostToDevice);
  // CHECK: :[[@LINE-1]]:3: error: 'hipMemcpy' is a synchronous copy (implicit use of the null stream): in a global-mode capture it fails with hipErrorStreamCaptureImplicit
  hipMemcpy(h, d, 64, hipMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: error: 'hipMemcpy' is a synchronous copy {{.*}} [capture-host-read]
  hipDeviceSynchronize();
  // CHECK: :[[@LINE-1]]:3: error: 'hipDeviceSynchronize' waits for all work on the device
  hipMallocAsync((void **)&p, 64, s); // graph memory node: fine
  hipMemcpyAsync(d, h, 64, hipMemcpyHostToDevice, s); // fine
  hipStreamEndCapture(s, &g);
}

void relaxed(hipStream_t s) {
  hipGraph_t g;
  void *p;
  hipStreamCaptureStatus st;
  hipStreamBeginCapture(s, hipStreamCaptureModeRelaxed);
  hipMalloc(&p, 64);
  // CHECK: :[[@LINE-1]]:3: remark: 'hipMalloc' allocates device memory: in a relaxed-mode capture it is allowed: it runs once
  hipStreamIsCapturing(s, &st);
  if (st == hipStreamCaptureStatusNone)
    hipDeviceSynchronize(); // guarded
  hipStreamEndCapture(s, &g);
}
