// Issue 23, item 1: a begin starts a capture on every path where its result
// may be success. A check that lets some errors through (`e != cudaSuccess
// && e != cudaErrorNotReady`, the shape HIP test suites' HIP_CHECK expands
// to) expects success, so the region is there; only a test that compares
// the result with an error and never with success expects the begin to
// fail. An end a test expects to fail (904, unjoined) still ends the
// capture.
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

extern "C" void abort();
void fail(const char *what);
template <class A, class B> bool expect_eq(A a, B b) { return a == b; }

#define TOLERANT_CHECK(expr)                                                   \
  {                                                                            \
    cudaError_t local_error = (expr);                                          \
    if (local_error != cudaSuccess && local_error != cudaErrorNotReady)        \
      abort();                                                                 \
  }

void declared(cudaStream_t s, cudaGraph_t *g) {
  cudaError_t e = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (e != cudaSuccess && e != cudaErrorNotReady)
    abort();
  cudaDeviceSynchronize();
  // CHECK: :[[@LINE-1]]:3: error: 'cudaDeviceSynchronize'
  cudaStreamEndCapture(s, g);
}

void assigned(cudaStream_t s, cudaGraph_t *g) {
  cudaError_t e;
  e = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (e != cudaSuccess && e != cudaErrorNotReady)
    abort();
  cudaStreamSynchronize(s);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaStreamSynchronize'
  cudaStreamEndCapture(s, g);
}

void macro(cudaStream_t s, cudaGraph_t *g) {
  TOLERANT_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  cudaDeviceSynchronize();
  // CHECK: :[[@LINE-1]]:3: error: 'cudaDeviceSynchronize'
  TOLERANT_CHECK(cudaStreamEndCapture(s, g));
  cudaDeviceSynchronize(); // after the end: quiet
}

// Returning on one error: the other results, success among them, go on.
void one_error_returns(cudaStream_t s, cudaGraph_t *g) {
  cudaError_t e = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (e == cudaErrorIllegalState)
    return;
  cudaDeviceSynchronize();
  // CHECK: :[[@LINE-1]]:3: error: 'cudaDeviceSynchronize'
  cudaStreamEndCapture(s, g);
}

// Only an error is tolerated: the test expects the begin to fail.
void only_error(cudaStream_t s) {
  cudaError_t e = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (e != cudaErrorIllegalState)
    fail("begin");
  cudaDeviceSynchronize(); // no capture: quiet
}

// A side stream forked in and never joined: the end fails with 904, and
// the stream leaves capture mode all the same.
void unjoined(cudaStream_t s, cudaStream_t side, cudaEvent_t ev,
              cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaEventRecord(ev, s);
  cudaStreamWaitEvent(side, ev, 0);
  expect_eq(cudaErrorStreamCaptureUnjoined, cudaStreamEndCapture(s, g));
  cudaDeviceSynchronize(); // the capture has ended: quiet
}

// The result checked through a function (comm_scope's PRINT_IF_ERROR): its
// body's `return e != cudaSuccess;` says the branch is taken on failure.
bool print_if_error(cudaError_t e) {
  if (e != cudaSuccess)
    fail("cuda");
  return e != cudaSuccess;
}
void checked_by_function(cudaStream_t s, cudaGraph_t *g, void *p) {
  for (int i = 0; i < 2; ++i) {
    if (print_if_error(
            cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal)))
      break;
    cudaDeviceSynchronize();
    // CHECK: :[[@LINE-1]]:5: error: 'cudaDeviceSynchronize'
    // CHECK: :[[@LINE-4]]:13: note: capture of stream 's' begins here
    if (print_if_error(cudaStreamEndCapture(s, g)))
      break;
  }
  cudaFree(p); // the break is taken only where the begin failed: quiet
}
