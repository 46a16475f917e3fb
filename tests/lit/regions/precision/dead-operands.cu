// Issue 11, item 2: a test macro that repeats its argument in dead code
// (Catch2's REQUIRE keeps `false && (x)`): the dead copy of a begin starts
// no second capture, so nothing is reported as never ended.
// RUN: not %capture-lint --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

void handle(bool ok);
#define REQUIRE(x)                                                             \
  do {                                                                         \
    handle(static_cast<bool>(x));                                              \
  } while ((void)0, false && (x))

void test_capture(cudaStream_t s, cudaGraph_t *g) {
  REQUIRE(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) ==
          cudaSuccess);
  cudaDeviceSynchronize();
  // CHECK: :[[@LINE-1]]:3: error: 'cudaDeviceSynchronize'
  REQUIRE(cudaStreamEndCapture(s, g) == cudaSuccess);
}
