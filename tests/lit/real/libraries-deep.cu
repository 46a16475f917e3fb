// Deeper library knowledge on the real headers: cuBLAS workspaces and host
// pointer mode, the cuRAND host API, NCCL set-up, Thrust policies and device
// vectors, CUB two-phase calls.
// REQUIRES: real-cuda
// RUN: not %capture-lint --quiet %s \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cub/cub.cuh>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <curand.h>
#include <nccl.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>

struct Gemm {
  cublasHandle_t with_ws, without_ws;
  void *ws;
  Gemm() { cublasSetWorkspace(with_ws, ws, 1 << 22); }
  void run(cudaStream_t s, const float *a, const float *b, float *c) {
    const float one = 1.f, zero = 0.f;
    cudaGraph_t g;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    cublasSgemm(with_ws, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, &one, a, 8, b, 8,
                &zero, c, 8);
    // CUDA 13's headers (CUDART_VERSION 13000): from 12.2 on a GEMM without
    // a workspace is captured (memory nodes), so no finding; the mock-header
    // fixture (checks/libraries.cu) covers older or unknown toolkits.
    cublasSgemm(without_ws, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, &one, a, 8, b,
                8, &zero, c, 8);
    float host_dot;
    cublasSdot(with_ws, 8, a, 1, b, 1, &host_dot);
    // CHECK: :[[@LINE-1]]:5: error: 'cublasSdot' writes its result to a host pointer (CUBLAS_POINTER_MODE_HOST)
    cublasSdot(with_ws, 8, a, 1, b, 1, c); // device pointer mode: fine
    cudaStreamEndCapture(s, &g);
  }
};

void rng(cudaStream_t s, curandGenerator_t gen, float *x) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  curandGenerateUniform(gen, x, 64);
  // CHECK: :[[@LINE-1]]:3: remark: 'curandGenerateUniform' generates with the cuRAND host API: it is captured when the generator was created, seeded and used once before the capture
  cudaStreamEndCapture(s, &g);
}

void nccl(cudaStream_t s, ncclComm_t comm, float *x) {
  cudaGraph_t g;
  void *buf;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  ncclAllReduce(x, x, 64, ncclFloat, ncclSum, comm, s); // capturable: fine
  void *handle;
  ncclCommRegister(comm, x, 256, &handle); // host bookkeeping only: fine
  ncclMemAlloc(&buf, 1 << 20);
  // CHECK: :[[@LINE-1]]:3: error: 'ncclMemAlloc' allocates NCCL-registered device memory
  cudaStreamEndCapture(s, &g);
}

float thrust_calls(cudaStream_t s, float *raw, int n) {
  cudaGraph_t g;
  thrust::device_vector<float> outside(n); // before the capture: fine
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  thrust::sort(thrust::device, raw, raw + n);
  // CHECK: :[[@LINE-1]]:3: error: 'thrust::sort' runs a Thrust algorithm with a synchronizing policy
  float sum = thrust::reduce(thrust::cuda::par.on(s), raw, raw + n);
  // CHECK: :[[@LINE-1]]:15: error: 'thrust::reduce' runs a Thrust algorithm with a synchronizing policy
  thrust::sort(thrust::cuda::par_nosync.on(s), raw, raw + n); // fine
  thrust::device_vector<float> inside(n);
  // CHECK: :[[@LINE-1]]:32: error: 'thrust::device_vector::device_vector' constructs a thrust::device_vector
  outside.resize(2 * n);
  // CHECK: :[[@LINE-1]]:11: error: 'thrust::detail::vector_base::resize' resizes a thrust::device_vector
  float first = outside[0];
  // CHECK: :[[@LINE-1]]:17: error: 'thrust::detail::vector_base::operator[]' accesses a thrust::device_vector element from the host
  cudaStreamEndCapture(s, &g);
  return sum + first;
}

void cub_two_phase(cudaStream_t s, const int *in, int *out, int n,
                   void *temp, size_t bytes) {
  cudaGraph_t g;
  size_t query = 0;
  cub::DeviceReduce::Sum(nullptr, query, in, out, n, s); // before: fine
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  // A size query inside the capture is host arithmetic (measured: no GPU
  // work, no error): quiet.
  cub::DeviceReduce::Sum(nullptr, query, in, out, n, s);
  cub::DeviceReduce::Sum(temp, bytes, in, out, n, s); // second phase: fine
  cudaStreamEndCapture(s, &g);
}
