// Issue 11, item 8: library behaviour depends on the toolkit version the
// headers declare: from CUDA 12.2 on, a GEMM on a handle without a user
// workspace is captured (memory nodes); before, or when the headers do not
// say, it is reported.
// RUN: %capture-lint --quiet %s -- %cuda-mock -DNEW_TOOLKIT | count 0
// RUN: not %capture-lint --quiet %s -- %cuda-mock -DOLD_TOOLKIT \
// RUN:   | FileCheck %s --check-prefix=OLD --implicit-check-not="{{(warning|error|remark)}}:"
// RUN: not %capture-lint --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --check-prefix=OLD --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>
#if defined(NEW_TOOLKIT)
#define CUDART_VERSION 12020
#elif defined(OLD_TOOLKIT)
#define CUDART_VERSION 12010
#endif

typedef struct cublasContext *cublasHandle_t;
typedef enum { CUBLAS_OP_N = 0 } cublasOperation_t;
extern "C" int cublasSgemm_v2(cublasHandle_t h, cublasOperation_t a,
                              cublasOperation_t b, int m, int n, int k,
                              const float *alpha, const float *A, int lda,
                              const float *B, int ldb, const float *beta,
                              float *C, int ldc);
#define cublasSgemm cublasSgemm_v2

void gemm(cublasHandle_t h, cudaStream_t s, const float *a, float *c) {
  const float one = 1.f;
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, &one, a, 8, a, 8, &one, c,
              8);
  // OLD: :[[@LINE-2]]:3: warning: 'cublasSgemm' lets cuBLAS allocate its workspace lazily
  cudaStreamEndCapture(s, &g);
}
