// Regions that begin in one function and end in another: member pairs on
// one object, free-function pairs, RAII guards, and chains of openers.
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

void helper_sync(cudaStream_t s) { cudaStreamSynchronize(s); }

class GraphRunner {
public:
  void begin() { cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal); }
  void end() { cudaStreamEndCapture(stream_, &graph_); }
  cudaStream_t stream_;
  cudaGraph_t graph_;
};

void member_pair(GraphRunner &runner, float *d) {
  cudaMalloc(&d, 16); // before: fine
  runner.begin();
  cudaMalloc(&d, 16);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaMalloc' allocates device memory: in a global-mode capture it fails
  // CHECK: :[[@LINE-3]]:10: note: capture of stream 'stream_' begins with this call to 'GraphRunner::begin', mode global
  // CHECK: :11:18: note: the capture begins here
  helper_sync(runner.stream_);
  // CHECK: :[[@LINE-1]]:3: error: call to 'helper_sync' reaches 'cudaStreamSynchronize'
  runner.end();
  cudaMalloc(&d, 16); // after: fine
}

// Two runners: ending one does not end the other.
void two_objects(GraphRunner &a, GraphRunner &b) {
  a.begin();
  b.end();
  cudaDeviceSynchronize();
  // CHECK: :[[@LINE-1]]:3: error: 'cudaDeviceSynchronize'
  a.end();
  cudaDeviceSynchronize(); // after: fine
}

// Free-function pair, one more call deep.
static cudaGraph_t g_graph;
void start_recording_impl(cudaStream_t s) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
}
void start_recording(cudaStream_t s) { start_recording_impl(s); }
void stop_recording(cudaStream_t s) { cudaStreamEndCapture(s, &g_graph); }

void free_pair(cudaStream_t s, float *d) {
  start_recording(s);
  cudaMemset(d, 0, 4);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaMemset' is a synchronous memset
  // CHECK: :[[@LINE-3]]:3: note: capture of stream 's' begins with this call to 'start_recording', mode thread_local
  // CHECK: :45:40: note: 'start_recording' calls 'start_recording_impl' here
  // CHECK: :43:3: note: the capture begins here
  stop_recording(s);
  cudaMemset(d, 0, 4); // after: fine
}

// A RAII guard: the constructor begins, the destructor ends.
class CaptureGuard {
public:
  explicit CaptureGuard(cudaStream_t s) : s_(s) {
    cudaStreamBeginCapture(s_, cudaStreamCaptureModeRelaxed);
  }
  ~CaptureGuard() { cudaStreamEndCapture(s_, &g_); }

private:
  cudaStream_t s_;
  cudaGraph_t g_;
};

void raii(cudaStream_t s, float *d) {
  {
    CaptureGuard guard(s);
    cudaStreamSynchronize(s);
    // CHECK: :[[@LINE-1]]:5: error: 'cudaStreamSynchronize' waits for a stream to drain: in a relaxed-mode capture it fails
    // CHECK: :[[@LINE-3]]:18: note: capture of stream 's_' begins with this call to the constructor of 'guard', mode relaxed
  }
  cudaStreamSynchronize(s); // the guard's scope has ended: fine
}

// An opener given the mode: the caller's argument decides it (cudnn-frontend's
// and mlx's warm-up captures pass cudaStreamCaptureModeRelaxed).
inline cudaError_t begin_with_mode(cudaStream_t s, cudaStreamCaptureMode m) {
  return cudaStreamBeginCapture(s, m);
}
void warmup(cudaStream_t s, void **p) {
  cudaGraph_t g;
  begin_with_mode(s, cudaStreamCaptureModeRelaxed);
  cudaMalloc(p, 1024);
  // CHECK: :[[@LINE-1]]:3: remark: 'cudaMalloc' allocates device memory: in a relaxed-mode capture it is allowed
  // CHECK: :[[@LINE-3]]:3: note: capture of stream 's' begins with this call to 'begin_with_mode', mode relaxed
  // CHECK: :[[@LINE-8]]:10: note: the capture begins here
  cudaStreamEndCapture(s, &g);
  begin_with_mode(s, cudaStreamCaptureModeGlobal);
  cudaMalloc(p, 1024);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaMalloc' allocates device memory: in a global-mode capture it fails
  // CHECK: :[[@LINE-3]]:3: note: capture of stream 's' begins with this call to 'begin_with_mode', mode global
  // CHECK: :[[@LINE-14]]:10: note: the capture begins here
  cudaStreamEndCapture(s, &g);
}
