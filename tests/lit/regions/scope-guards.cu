// An opener that returns a scope guard whose callable ends the capture
// (tiny-cuda-nn's capture_guard): the guard's destructor runs the lambda it
// was given, so the region ends with the guard's scope, and the function
// that holds the guard is no opener.
// RUN: not %capture-lint --quiet %s -- %cuda-mock -isystem %S/Inputs \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>
#include <mock_functional.h>

struct ScopeGuard {
  std::function<void()> on_exit;
  ~ScopeGuard() { on_exit(); }
};
struct Graph {
  cudaGraph_t g;
  ScopeGuard capture_guard(cudaStream_t s) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    return ScopeGuard{[this, s]() { cudaStreamEndCapture(s, &g); }};
  }
};
Graph graph;

void step(cudaStream_t s) {
  {
    auto guard = graph.capture_guard(s);
    cudaStreamSynchronize(s);
    // CHECK: :[[@LINE-1]]:5: error: 'cudaStreamSynchronize'
    // CHECK: :[[@LINE-3]]:24: note: capture of stream 's' begins with this call to 'Graph::capture_guard'
    // CHECK: :17:5: note: the capture begins here
  }
  cudaStreamSynchronize(s); // the guard's scope has ended: quiet
}

void train(cudaStream_t s) {
  step(s);
  cudaDeviceSynchronize(); // step() ends what it begins: quiet
}
