// Functions that run a callable under a capture they begin: the callable's
// body is a region, whether it is a lambda, a named function, a
// std::function or a template parameter.
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>
#include <functional>

cudaGraph_t capture_fn(cudaStream_t s, void (*body)(cudaStream_t)) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  body(s);
  cudaStreamEndCapture(s, &g);
  return g;
}

cudaGraph_t capture_std(cudaStream_t s, const std::function<void()> &body) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  body();
  cudaStreamEndCapture(s, &g);
  return g;
}

template <typename F> cudaGraph_t capture_tpl(cudaStream_t s, F &&body) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  std::forward<F>(body)();
  cudaStreamEndCapture(s, &g);
  return g;
}

void step(cudaStream_t s) {
  cudaStreamSynchronize(s);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaStreamSynchronize' waits for a stream to drain: in a global-mode capture it fails
  // CHECK: :[[@LINE+7]]:3: note: 'step' runs under a capture of stream 's': it is passed to 'capture_fn' here, mode global
  // CHECK: :12:3: note: 'capture_fn' runs it here
  // CHECK: :11:3: note: the capture begins here
}

void use_function_pointer(cudaStream_t s) {
  step(s); // not under capture here: fine
  capture_fn(s, &step);
}

void use_std_function(cudaStream_t s, float *d) {
  capture_std(s, [&] {
    cudaMalloc(&d, 64);
    // CHECK: :[[@LINE-1]]:5: remark: 'cudaMalloc' allocates device memory: in a relaxed-mode capture it is allowed: it runs once, at capture time
    // CHECK: :[[@LINE-3]]:3: note: 'lambda' runs under a capture of stream 's': it is passed to 'capture_std' here, mode relaxed
  });
}

void use_template(cudaStream_t s, float *d, float *h) {
  auto body = [=] {
    cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost);
    // CHECK: :[[@LINE-1]]:5: error: 'cudaMemcpy' is a synchronous copy
  };
  capture_tpl(s, body);
}

// The same lambda outside any wrapper is not a region.
void not_wrapped(float *d, float *h) {
  auto body = [=] { cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost); };
  body();
}
