// Real cuBLAS, cuFFT, cuRAND and NCCL headers: set-up calls in a region.
// REQUIRES: real-cuda
// RUN: not %capture-lint --quiet --checks=capture-allocation,capture-legacy-stream %s \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cufft.h>
#include <curand.h>
#include <nccl.h>

void capture(cudaStream_t s, float *x, float *y, int n, ncclComm_t comm) {
  cudaGraph_t g;
  cublasHandle_t h;
  cufftHandle plan;
  curandGenerator_t gen;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cublasCreate(&h);
  // CHECK: :[[@LINE-1]]:3: error: 'cublasCreate' creates a cuBLAS handle
  cufftPlan1d(&plan, n, CUFFT_R2C, 1);
  // CHECK: :[[@LINE-1]]:3: error: 'cufftPlan1d' creates a cuFFT plan {{.*}} fails with CUFFT_INTERNAL_ERROR
  curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT);
  // CHECK: :[[@LINE-1]]:3: error: 'curandCreateGenerator' creates a cuRAND generator
  ncclAllReduce(x, y, n, ncclFloat, ncclSum, comm, s); // capturable
  ncclAllReduce(x, y, n, ncclFloat, ncclSum, comm, 0);
  // CHECK: :[[@LINE-1]]:3: error: 'ncclAllReduce' runs on the legacy default stream ('0')
  cudaStreamEndCapture(s, &g);
}
