// Real code wraps every runtime call in an error check, keeps status codes
// in locals, pauses a capture to do some work eagerly, and passes debug
// flags down: none of it is a capture hazard (shapes seen in NCCL, RCCL,
// rocPRIM and Warp; written for this test).
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

extern "C" void exit(int);
#define CK(call)                                                               \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess)                                                     \
      exit(1);                                                                 \
  } while (0)

// Begin and end both checked: the only way out with the capture open is
// exit(), so this is no opener and main's sync is outside any capture.
static void run_timed(cudaStream_t s, cudaGraph_t *g) {
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CK(cudaStreamEndCapture(s, g));
}

// A failed begin starts no capture: the error path's cleanup is quiet.
static int checked_begin(cudaStream_t s, cudaGraph_t *g) {
  cudaError_t e = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (e != cudaSuccess) {
    cudaDeviceSynchronize();
    return 1;
  }
  cudaDeviceSynchronize();
  // CHECK: :[[@LINE-1]]:3: error: 'cudaDeviceSynchronize'
  cudaStreamEndCapture(s, g);
  return 0;
}

// Pause, work eagerly, resume: to callers the capture goes on.
static void eager_copy(cudaStream_t s, void *dst, const void *src) {
  cudaStreamCaptureStatus st;
  cudaStreamIsCapturing(s, &st);
  cudaGraph_t paused;
  if (st != cudaStreamCaptureStatusNone)
    cudaStreamEndCapture(s, &paused);
  cudaMemcpyAsync(dst, src, 4, cudaMemcpyDeviceToDevice, s);
  if (st != cudaStreamCaptureStatusNone)
    cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
}

// A status code is a host value, not data read back from the device; a
// guard held in a bool compared with Active.
static void enqueue(cudaStream_t s, int *host, const int *dev) {
  cudaError_t e = cudaMemcpyAsync(host, dev, 4, cudaMemcpyDeviceToHost, s);
  if (e != cudaSuccess)
    return;
  cudaStreamCaptureStatus st;
  cudaStreamIsCapturing(s, &st);
  const bool capturing = st == cudaStreamCaptureStatusActive;
  if (!capturing)
    cudaStreamSynchronize(s);
}

// A debug flag passed down two calls selects the synchronizing branch.
static void launch(cudaStream_t s, bool debug_synchronous) {
  if (debug_synchronous)
    cudaStreamSynchronize(s);
}
static void algorithm(cudaStream_t s, bool debug_synchronous) {
  launch(s, debug_synchronous);
}

int main() {
  cudaStream_t s;
  cudaGraph_t g;
  int host[1], *dev = nullptr;
  run_timed(s, &g);
  cudaStreamSynchronize(s); // after run_timed: quiet
  checked_begin(s, &g);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  eager_copy(s, dev, dev);
  enqueue(s, host, dev);
  algorithm(s, false);
  algorithm(s, true);
  // CHECK: :[[@LINE-1]]:3: error: call to 'algorithm' reaches 'cudaStreamSynchronize'
  cudaStreamEndCapture(s, &g);
  return 0;
}
