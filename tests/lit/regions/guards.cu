// Guards as code writes them: early returns, a status kept in a local or a
// member, helper predicates, and a thread switched to relaxed mode.
// RUN: not %capture-lint --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

bool is_capturing(cudaStream_t s) {
  cudaStreamCaptureStatus st;
  cudaStreamIsCapturing(s, &st);
  return st != cudaStreamCaptureStatusNone;
}

bool safe_to_sync(cudaStream_t s) { return !is_capturing(s); }

void sync_unless_capturing(cudaStream_t s) {
  if (is_capturing(s))
    return;
  cudaStreamSynchronize(s);
}

void sync_if_safe(cudaStream_t s) {
  if (safe_to_sync(s))
    cudaStreamSynchronize(s);
}

void sync_with_local(cudaStream_t s) {
  bool capturing = is_capturing(s);
  if (!capturing)
    cudaStreamSynchronize(s);
}

struct Stream {
  cudaStream_t s;
  cudaStreamCaptureStatus status;
  void refresh() { cudaStreamIsCapturing(s, &status); }
  void sync() {
    refresh();
    if (status != cudaStreamCaptureStatusNone)
      return;
    cudaStreamSynchronize(s);
  }
};

void unguarded(cudaStream_t s) { cudaStreamSynchronize(s); }

void caller(Stream &st, cudaStream_t s, float *d) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  sync_unless_capturing(s);
  sync_if_safe(s);
  sync_with_local(s);
  st.sync();
  unguarded(s);
  // CHECK: :[[@LINE-1]]:3: error: call to 'unguarded' reaches 'cudaStreamSynchronize'
  // CHECK: :48:3: note: capture of stream 's' begins here, mode global
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  cudaThreadExchangeStreamCaptureMode(&mode);
  cudaMalloc(&d, 64);
  // CHECK: :[[@LINE-1]]:3: remark: 'cudaMalloc' allocates device memory: the thread is in relaxed capture mode here (cudaThreadExchangeStreamCaptureMode), so it is allowed
  cudaThreadExchangeStreamCaptureMode(&mode);
  cudaMalloc(&d, 64);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaMalloc' allocates device memory: in a global-mode capture it fails
  cudaStreamEndCapture(s, &g);
}
