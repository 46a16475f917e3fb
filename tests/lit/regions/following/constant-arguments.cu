// Issue 11, item 18: a callee called with a constant argument is analysed
// for that argument, so its synchronous branch is not reported.
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock \
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

// rocPRIM's typed tests: the switch is a const member of a class template
// (`TestFixture::debug_synchronous`, whose initialiser the specialisation
// never instantiates), copied into a const local that a forwarding wrapper
// binds to `const bool &` and passes on with std::forward.
#include <utility>
namespace prim {
cudaError_t scan_impl(cudaStream_t stream, const bool debug_synchronous) {
  if (debug_synchronous)
    return cudaStreamSynchronize(stream);
  return cudaSuccess;
}
template <class Config = void>
cudaError_t scan(cudaStream_t stream, bool debug_synchronous = false) {
  return scan_impl(stream, debug_synchronous);
}
} // namespace prim
template <bool Deterministic, class... Args>
cudaError_t invoke_scan(Args &&...args) {
  return prim::scan<>(std::forward<Args>(args)...);
}
template <class Params> struct TypedFixture {
  const bool debug_synchronous = false;
};
template <class Params> struct LoudFixture {
  const bool debug_synchronous = true;
};
template <class Params> struct TypedTest : TypedFixture<Params> {
  using TestFixture = TypedFixture<Params>;
  void body(cudaStream_t s, cudaGraph_t *g) {
    const bool debug_synchronous = TestFixture::debug_synchronous;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    invoke_scan<false>(s, debug_synchronous); // quiet
    cudaStreamEndCapture(s, g);
  }
};
template struct TypedTest<int>;
template <class Params> struct TypedLoudTest : LoudFixture<Params> {
  using TestFixture = LoudFixture<Params>;
  void body(cudaStream_t s, cudaGraph_t *g) {
    const bool debug_synchronous = TestFixture::debug_synchronous;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    invoke_scan<false>(s, debug_synchronous);
    // CHECK: :[[@LINE-1]]:5: error: call to 'invoke_scan' reaches 'cudaStreamSynchronize'
    cudaStreamEndCapture(s, g);
  }
};
template struct TypedLoudTest<int>;

// A generic lambda run by a wrapper that passes it its own constant
// (`scan_by_key_fun(..., debug_synchronous, ...)` in rocPRIM's
// large-indices tests): the lambda is analysed with that constant.
template <class Fun> void run_captured(Fun fun, cudaStream_t s, cudaGraph_t *g) {
  constexpr bool debug_synchronous = false;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  fun(s, debug_synchronous);
  cudaStreamEndCapture(s, g);
}
template <class Fun> void run_loud(Fun fun, cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  fun(s, true);
  cudaStreamEndCapture(s, g);
}
void large_indices(cudaStream_t s, cudaGraph_t *g) {
  auto quiet = [](auto stream, bool debug_synchronous) {
    return prim::scan(stream, debug_synchronous);
  };
  run_captured(quiet, s, g); // quiet
  auto loud = [](auto stream, bool debug_synchronous) {
    return prim::scan(stream, debug_synchronous);
    // CHECK: :[[@LINE-1]]:12: error: call to 'prim::scan' reaches 'cudaStreamSynchronize'
  };
  run_loud(loud, s, g);
}
