// The real CUDA 13 headers of this machine, with capture-lint's default flags
// (no `--`): the compat directory, --cuda-path and host-only parsing.
// REQUIRES: real-cuda
// RUN: not %capture-lint --quiet %s \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>
#include <cstdio>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s\n", cudaGetErrorString(err_));                  \
      return;                                                                  \
    }                                                                          \
  } while (0)

__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}

void capture(cudaStream_t s, float *d, int n) {
  cudaGraph_t graph;
  float *tmp = nullptr;
  int flag = 0;
  CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  scale<<<(n + 255) / 256, 256, 0, s>>>(d, 2.f, n);
  scale<<<(n + 255) / 256, 256>>>(d, 2.f, n);
  // CHECK: :[[@LINE-1]]:3: error: kernel launch 'scale' runs on the legacy default stream
  cudaMalloc(&tmp, n * sizeof(float)); // unchecked: a checked one ends paths
  // CHECK: :[[@LINE-1]]:3: error: 'cudaMalloc' allocates device memory
  CUDA_CHECK(cudaMemcpyAsync(&flag, d, sizeof(int), cudaMemcpyDeviceToHost, s));
  // CHECK: :[[@LINE-1]]:3: warning: 'CUDA_CHECK' returns here with the capture of stream 's' still open (begun at line 28)
  if (flag)
    // CHECK: :[[@LINE-1]]:3: warning: 'if' condition depends on 'flag' (a value read back from the device)
    // CHECK: :[[@LINE-2]]:7: warning: host read of 'flag'
    CUDA_CHECK(cudaStreamSynchronize(s));
  // CHECK: :[[@LINE-1]]:16: error: 'cudaStreamSynchronize' waits for a stream to drain
  CUDA_CHECK(cudaMallocAsync(&tmp, n * sizeof(float), s)); // memory node
  CUDA_CHECK(cudaFreeAsync(tmp, s));
  CUDA_CHECK(cudaStreamEndCapture(s, &graph));
}
