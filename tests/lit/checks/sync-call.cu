// RUN: not %capture-lint --quiet --checks=capture-sync-call %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

#define CUDA_CHECK(x)                                                          \
  do {                                                                         \
    cudaError_t err_ = (x);                                                    \
    if (err_ != cudaSuccess)                                                   \
      return;                                                                  \
  } while (0)

void direct(cudaStream_t s, cudaEvent_t e, float *d, float *h) {
  cudaGraph_t g;
  cudaDeviceSynchronize(); // before the region: fine
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaDeviceSynchronize();
  // CHECK: :[[@LINE-1]]:3: error: 'cudaDeviceSynchronize' waits for all work on the device: in a global-mode capture it fails with cudaErrorStreamCaptureUnsupported (900) and invalidates the capture; move it after cudaStreamEndCapture
  // CHECK: :[[@LINE-3]]:3: note: capture of stream 's' begins here, mode global
  cudaStreamSynchronize(s); // unchecked: a checked one ends the paths here
  // CHECK: :[[@LINE-1]]:3: error: 'cudaStreamSynchronize' waits for a stream to drain
  cudaEventSynchronize(e);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaEventSynchronize' waits for an event: in a global-mode capture it fails with cudaErrorCapturedEvent (907)
  cudaStreamQuery(s);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaStreamQuery'
  cudaMemcpy(d, h, 16, cudaMemcpyHostToDevice);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaMemcpy' is a synchronous copy on the legacy default stream
  cudaMemset(d, 0, 16);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaMemset' is a synchronous memset
  cudaMemcpyAsync(d, h, 16, cudaMemcpyHostToDevice, s); // captured: fine
  cudaGetLastError();                                   // legal: fine
  cudaStreamEndCapture(s, &g);
  cudaDeviceSynchronize(); // after the region: fine
}

// Relaxed mode does not make a sync legal.
void relaxed(cudaStream_t s) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  cudaDeviceSynchronize();
  // CHECK: :[[@LINE-1]]:3: error: 'cudaDeviceSynchronize' waits for all work on the device: in a relaxed-mode capture it fails
  cudaStreamEndCapture(s, &g);
}

// A synchronize guarded by a capture-status query is not reached while
// capturing.
void guarded(cudaStream_t s) {
  cudaGraph_t g;
  cudaStreamCaptureStatus st;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaStreamIsCapturing(s, &st);
  if (st == cudaStreamCaptureStatusNone)
    cudaStreamSynchronize(s);
  if (st != cudaStreamCaptureStatusNone) {
  } else {
    cudaDeviceSynchronize();
  }
  cudaStreamEndCapture(s, &g);
}

// Functions called only outside regions produce nothing; functions called
// inside are followed, with notes down to the call.
static void waitAll() { cudaDeviceSynchronize(); }
static void step(cudaStream_t s) { waitAll(); }
void helperOutside() { waitAll(); }

void throughCalls(cudaStream_t s) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  step(s);
  // CHECK: :[[@LINE-1]]:3: error: call to 'step' reaches 'cudaDeviceSynchronize' ({{[^)]*}}), which waits for all work on the device: in a thread_local-mode capture it fails
  // CHECK: :[[@LINE-8]]:36: note: 'step' calls 'waitAll' here
  // CHECK: :[[@LINE-10]]:25: note: 'cudaDeviceSynchronize' is called here
  // CHECK: :[[@LINE-5]]:3: note: capture of stream 's' begins here, mode thread_local
  cudaStreamEndCapture(s, &g);
}

// Recursion is followed once.
static void recurse(int n) {
  if (n)
    recurse(n - 1);
  cudaStreamQuery(nullptr);
}
void recursive(cudaStream_t s) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  recurse(3);
  // CHECK: :[[@LINE-1]]:3: error: call to 'recurse' reaches 'cudaStreamQuery'
  cudaStreamEndCapture(s, &g);
}

// NOLINT works.
void suppressed(cudaStream_t s) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaDeviceSynchronize(); // NOLINT(capture-sync-call)
  cudaStreamEndCapture(s, &g);
}

// A template instantiated twice reports once.
template <typename T> void templ(cudaStream_t s) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaDeviceSynchronize();
  // CHECK: :[[@LINE-1]]:3: error: 'cudaDeviceSynchronize' waits
  cudaStreamEndCapture(s, &g);
}
template void templ<int>(cudaStream_t);
template void templ<float>(cudaStream_t);
