// RUN: not %capture-lint --quiet --checks=capture-legacy-stream %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

__global__ void kernel(float *p) {}

void launches(cudaStream_t s, float *d, float *h, void **args) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  kernel<<<1, 32>>>(d);
  // CHECK: :[[@LINE-1]]:3: error: kernel launch 'kernel' runs on the legacy default stream (stream argument left at its default) while stream 's' is capturing: with a blocking capture stream it fails with cudaErrorStreamCaptureImplicit (906) and invalidates the capture; with a non-blocking one it runs now and is missing from the graph; pass the capturing stream 's' explicitly
  kernel<<<1, 32, 0, 0>>>(d);
  // CHECK: :[[@LINE-1]]:3: error: kernel launch 'kernel' runs on the legacy default stream ('0')
  kernel<<<1, 32, 0, s>>>(d); // the capturing stream: fine
  cudaMemcpyAsync(d, h, 16, cudaMemcpyHostToDevice);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaMemcpyAsync' runs on the legacy default stream (stream argument left at its default)
  cudaMemcpyAsync(d, h, 16, cudaMemcpyHostToDevice, nullptr);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaMemcpyAsync' runs on the legacy default stream ('nullptr')
  cudaMemsetAsync(d, 0, 16, NULL);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaMemsetAsync' runs on the legacy default stream ('NULL')
  cudaMemsetAsync(d, 0, 16, cudaStreamLegacy);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaMemsetAsync' runs on the legacy default stream ('cudaStreamLegacy')
  cudaLaunchKernel((const void *)kernel, dim3(1), dim3(32), args, 0, 0);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaLaunchKernel' runs on the legacy default stream ('0')
  cudaEventRecord(nullptr);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaEventRecord' runs on the legacy default stream (stream argument left at its default)
  cudaMemcpyAsync(d, h, 16, cudaMemcpyHostToDevice, s);  // fine
  cudaMemsetAsync(d, 0, 16, cudaStreamPerThread);         // not the legacy stream
  cudaStreamEndCapture(s, &g);
  kernel<<<1, 32>>>(d); // outside the region: fine
}
