// An opener that returns a scope guard whose callable ends the capture
// (tiny-cuda-nn's capture_guard): the guard's destructor runs the lambda it
// was given, so the region ends with the guard's scope, and the function
// that holds the guard is no opener.
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock -isystem %S/Inputs \
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

// tiny-cuda-nn's shape: the guard class is built in several places with
// different lambdas (a JIT guard's does not end any capture), so what its
// member may hold says nothing; the guard object holds what its own
// construction gave it. Early `return {}` paths build an empty guard.
class Guard {
public:
  Guard() = default;
  Guard(const std::function<void()> &callback) : m_callback{callback} {}
  ~Guard() {
    if (m_armed)
      m_callback();
  }

private:
  std::function<void()> m_callback;
  bool m_armed = true;
};
struct Recorder {
  cudaGraph_t g;
  int drops = 0;
  Guard capture_guard(cudaStream_t s) {
    if (s == nullptr)
      return {};
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    return Guard{[this, s]() { cudaStreamEndCapture(s, &g); }};
  }
  Guard jit_guard(cudaStream_t s) {
    return Guard{[s]() { cudaLaunchHostFunc(s, nullptr, nullptr); }};
  }
  Guard leaky_guard(cudaStream_t s) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    return Guard{[this]() { ++drops; }};
  }
};
Recorder recorder;

void train_step(cudaStream_t s, bool first) {
  {
    auto guard = recorder.capture_guard(s);
    auto jit = recorder.jit_guard(s);
  }
  cudaStreamSynchronize(s); // both guards are gone: quiet
  {
    auto guard = first ? Guard{} : recorder.capture_guard(s);
  }
  cudaStreamSynchronize(s); // quiet
}

void train_loop(cudaStream_t s) {
  train_step(s, false);
  cudaDeviceSynchronize(); // train_step ends what it begins: quiet
}

void leaky(cudaStream_t s) {
  {
    auto guard = recorder.leaky_guard(s);
  }
  cudaStreamSynchronize(s); // the guard's lambda ends nothing
  // CHECK: :[[@LINE-1]]:3: error: 'cudaStreamSynchronize'
}
