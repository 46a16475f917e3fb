// Issue 11, item 3: conformance tests call a begin that must fail and check
// the error; such a call starts no capture.
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

void fail(const char *what);
#define CHECK_ERROR(expr, expected)                                            \
  {                                                                            \
    auto local_error = (expr);                                                 \
    if (local_error != (expected))                                             \
      fail(#expr);                                                             \
  }
template <class A, class B> bool expect_eq(A a, B b) { return a == b; }

void twice(cudaStream_t s) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  // Beginning again must fail: no second capture, nothing unended.
  CHECK_ERROR(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal),
              cudaErrorIllegalState);
  cudaGraph_t g;
  cudaStreamEndCapture(s, &g);
  cudaDeviceSynchronize(); // after the end: quiet
}

void not_capturing(cudaStream_t s, cudaStream_t other, cudaGraph_t *g) {
  expect_eq(cudaErrorIllegalState,
            cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  if (cudaStreamEndCapture(other, g) != cudaErrorStreamCaptureUnmatched)
    fail("end");
  cudaDeviceSynchronize(); // no capture was begun: quiet
}

void checked_for_success(cudaStream_t s, cudaGraph_t *g) {
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess)
    return;
  cudaDeviceSynchronize();
  // CHECK: :[[@LINE-1]]:3: error: 'cudaDeviceSynchronize'
  cudaStreamEndCapture(s, g);
}
