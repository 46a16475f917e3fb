// Issue 11, item 12: functors passed to a capture wrapper, a callable held
// in a member and run between begin and end, nested wrappers, and library
// algorithms given a lambda.
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock -isystem %S/../Inputs \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>
#include <mock_functional.h>

template <class F> void capture_graph(cudaStream_t s, cudaGraph_t *g, F &&f) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  f();
  cudaStreamEndCapture(s, g);
}
template <class F> void capture_twice(cudaStream_t s, cudaGraph_t *g, F &&f) {
  capture_graph(s, g, f);
}

struct SyncStep {
  cudaStream_t s;
  void operator()() const { cudaStreamSynchronize(s); }
  // CHECK: :[[@LINE-1]]:29: error: 'cudaStreamSynchronize'
  // CHECK: note: 'SyncStep::operator()' runs under a capture of stream 's': it is passed to 'capture_graph' here
};

struct Runner {
  std::function<void()> body_;
  cudaStream_t s_;
  void set_body() {
    body_ = [this] { cudaDeviceSynchronize(); };
  }
  void record(cudaGraph_t *g) {
    cudaStreamBeginCapture(s_, cudaStreamCaptureModeGlobal);
    body_();
    // CHECK: :[[@LINE-1]]:5: error: call to 'lambda' reaches 'cudaDeviceSynchronize'
    cudaStreamEndCapture(s_, g);
  }
};

void use(cudaStream_t s, cudaGraph_t *g, int *items, int n) {
  capture_graph(s, g, SyncStep{s});
  capture_twice(s, g, [&] { cudaDeviceSynchronize(); });
  // CHECK: :[[@LINE-1]]:29: error: 'cudaDeviceSynchronize'
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  std::for_each(items, items + n, [&](int) { cudaStreamQuery(s); });
  // CHECK: :[[@LINE-1]]:3: error: call to 'lambda' reaches 'cudaStreamQuery'
  cudaStreamEndCapture(s, g);
}
