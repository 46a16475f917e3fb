// Issue 11, item 18: a callee called with a constant argument is analysed
// for that argument, so its synchronous branch is not reported.
// RUN: not %capture-lint --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

enum class CopyMode { Sync, Async };

void copy(void *dst, const void *src, size_t n, CopyMode mode,
          cudaStream_t s) {
  if (mode == CopyMode::Sync)
    cudaMemcpy(dst, src, n, cudaMemcpyDeviceToDevice);
  else
    cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToDevice, s);
}

void fill(void *p, size_t n, bool blocking, cudaStream_t s) {
  if (!blocking) {
    cudaMemsetAsync(p, 0, n, s);
    return;
  }
  cudaMemset(p, 0, n);
}

void step(void *a, void *b, size_t n, cudaStream_t s, cudaGraph_t *g,
          CopyMode chosen) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  copy(a, b, n, CopyMode::Async, s); // the asynchronous branch only: quiet
  fill(a, n, false, s);               // quiet
  copy(a, b, n, CopyMode::Sync, s);
  // CHECK: :[[@LINE-1]]:3: error: call to 'copy' reaches 'cudaMemcpy'
  copy(a, b, n, chosen, s);
  // CHECK: :[[@LINE-1]]:3: error: call to 'copy' reaches 'cudaMemcpy'
  cudaStreamEndCapture(s, g);
}

// rocPRIM's shape: the debug switch is read inside a local lambda, which
// names the enclosing function's parameter itself.
void sort_impl(void *p, size_t n, cudaStream_t s, bool debug_synchronous) {
  auto step = [&](int pass) {
    cudaMemsetAsync(p, pass, n, s);
    if (debug_synchronous)
      cudaStreamSynchronize(s);
  };
  step(0);
  step(1);
}

void sort(void *p, size_t n, cudaStream_t s, bool debug) {
  sort_impl(p, n, s, debug);
}

void sort_step(void *p, size_t n, cudaStream_t s, cudaGraph_t *g, bool debug) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  sort(p, n, s, false); // quiet
  sort(p, n, s, debug);
  // CHECK: :[[@LINE-1]]:3: error: call to 'sort' reaches 'cudaStreamSynchronize'
  cudaStreamEndCapture(s, g);
}

// Issue 23, item 5: the constant reaches a switch, through an inline helper
// that passes its parameter on.
enum class Kind { Sync, Async, Peer };
inline void copy_kind(void *a, const void *b, cudaStream_t s, Kind k) {
  switch (k) {
  case Kind::Sync:
    cudaMemcpy(a, b, 4, cudaMemcpyDeviceToDevice);
    break;
  case Kind::Async:
    cudaMemcpyAsync(a, b, 4, cudaMemcpyDeviceToDevice, s);
    break;
  default:
    cudaDeviceSynchronize();
  }
}
inline void stage(void *a, const void *b, cudaStream_t s, Kind k) {
  copy_kind(a, b, s, k);
}
void kinds(void *a, const void *b, cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  stage(a, b, s, Kind::Async);     // quiet
  copy_kind(a, b, s, Kind::Async); // quiet
  copy_kind(a, b, s, Kind::Peer);
  // CHECK: :[[@LINE-1]]:3: error: call to 'copy_kind' reaches 'cudaDeviceSynchronize'
  cudaStreamEndCapture(s, g);
}

// A const member whose in-class initialiser no constructor overrides is that
// constant (rocPRIM's test fixtures: `const bool debug_synchronous = false;`).
cudaError_t reduce(cudaStream_t s, bool debug_synchronous) {
  if (debug_synchronous)
    cudaStreamSynchronize(s);
  return cudaSuccess;
}
struct Fixture {
  const bool debug_synchronous = false;
};
struct ReduceTest : Fixture {
  void body(cudaStream_t s, cudaGraph_t *g) {
    const bool debug_synchronous = Fixture::debug_synchronous;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    reduce(s, debug_synchronous);       // quiet
    reduce(s, this->debug_synchronous); // quiet
    cudaStreamEndCapture(s, g);
  }
};
struct LoudTest {
  const bool sync = false;
  LoudTest() : sync(true) {}
  void body(cudaStream_t s, cudaGraph_t *g) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    reduce(s, sync);
    // CHECK: :[[@LINE-1]]:5: error: call to 'reduce' reaches 'cudaStreamSynchronize'
    cudaStreamEndCapture(s, g);
  }
};
