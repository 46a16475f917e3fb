// nvcc defines __CUDACC_VER_MAJOR__/MINOR/BUILD from its toolkit and real
// code gates capture features on them (cutlass's BeginCaptureToGraph regions
// need `__CUDACC_VER_MAJOR__ > 12 || ... >= 6`); capture-lint defines them
// from the toolkit's cuda.h, with the default flags and with explicit ones,
// unless the flags define them.
// REQUIRES: real-cuda
// RUN: not %capture-lint --quiet %s \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
// RUN: not %capture-lint --quiet %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
// RUN: %capture-lint --quiet %s -- -x cuda -std=c++17 -D__CUDACC_VER_MAJOR__=11 \
// RUN:   | FileCheck %s --check-prefix=OLD --allow-empty --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

void build(cudaStream_t s, cudaGraph_t g) {
#if (__CUDACC_VER_MAJOR__ > 12 ||                                              \
     (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 6))
  static_assert(__CUDACC_VER_MAJOR__ * 1000 + __CUDACC_VER_MINOR__ * 10 ==
                    CUDA_VERSION,
                "the toolkit's version");
  cudaStreamBeginCaptureToGraph(s, g, nullptr, nullptr, 0,
                                cudaStreamCaptureModeGlobal);
  cudaDeviceSynchronize();
  // CHECK: :[[@LINE-1]]:3: error: 'cudaDeviceSynchronize'
  cudaStreamEndCapture(s, &g);
#endif
}
// OLD-NOT: cudaDeviceSynchronize
