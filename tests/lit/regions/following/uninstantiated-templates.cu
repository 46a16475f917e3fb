// Header-only libraries keep capture code in templates a header never
// instantiates (cutlass, MatX, rocPRIM): such bodies are analysed as written;
// an instantiated template is analysed through its instantiations only.
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

template <int N> struct GraphWrapper {
  cudaGraph_t g;
  void record(cudaStream_t s) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
    cudaDeviceSynchronize();
    // CHECK: :[[@LINE-1]]:5: error: 'cudaDeviceSynchronize' waits for all work on the device: in a relaxed-mode capture it fails
    cudaStreamEndCapture(s, &g);
  }
};

// cutlass's shape: the begin and end are wrapped in a status check, and
// their arguments depend on the template (a member of a nested class), so
// the calls keep unresolved names until instantiation.
enum class Status { kSuccess, kError };
inline Status check_status(cudaError_t e) {
  return e == cudaSuccess ? Status::kSuccess : Status::kError;
}
template <int TP> struct DistGemm {
  struct State {
    cudaStream_t stream;
    cudaGraph_t graph;
  } state_;
  Status build() {
    Status status = check_status(
        cudaStreamBeginCapture(state_.stream, cudaStreamCaptureModeRelaxed));
    if (status != Status::kSuccess)
      return status;
    cudaDeviceSynchronize();
    // CHECK: :[[@LINE-1]]:5: error: 'cudaDeviceSynchronize' waits for all work on the device: in a relaxed-mode capture it fails
    return check_status(cudaStreamEndCapture(state_.stream, &state_.graph));
  }
};

template <class T> void capture_with(cudaStream_t s, cudaGraph_t *g, T *p) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMalloc(&p, sizeof(T));
  // CHECK: :[[@LINE-1]]:3: error: 'cudaMalloc' allocates device memory
  cudaStreamEndCapture(s, g);
}
template void capture_with<float>(cudaStream_t, cudaGraph_t *, float *);

// Issue 23, item 6: in a template no one instantiates, a generic lambda's
// call to the class's member function template, that member template called
// directly, and a functor whose operator() is a member template, each called
// with dependent arguments.
template <class T> struct Runner {
  cudaStream_t s;
  cudaGraph_t g;
  template <class U> void flush(U x) { cudaDeviceSynchronize(); }
  void go() {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    auto each = [this](auto x) { this->flush(x); };
    each(T{});
    // CHECK: :[[@LINE-1]]:5: error: call to 'lambda' reaches 'cudaDeviceSynchronize'
    flush(T{});
    // CHECK: :[[@LINE-1]]:5: error: call to 'Runner::flush' reaches 'cudaDeviceSynchronize'
    cudaStreamEndCapture(s, &g);
  }
};
struct SyncFunctor {
  cudaStream_t s;
  template <class A> void operator()(A) const { cudaStreamSynchronize(s); }
};
template <class T> struct Stepper {
  void go(cudaStream_t s, cudaGraph_t *g) {
    SyncFunctor f{s};
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    f(T{});
    // CHECK: :[[@LINE-1]]:5: error: call to 'SyncFunctor::operator()' reaches 'cudaStreamSynchronize'
    cudaStreamEndCapture(s, g);
  }
};
