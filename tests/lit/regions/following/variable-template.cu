// rocSPARSE's test shape: a test wrapper calls the library through a
// variable template of function pointers, each explicit specialization
// initialised with a C entry point that another file defines. The call is
// followed through the pointer into that file (whole-program phase). The
// two instantiations reach the same synchronization from the same call:
// one finding.
// RUN: not %capture-lint --quiet %s %S/Inputs/solve_impl.cu -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

extern "C" int ssolve(cudaStream_t s, int n);
extern "C" int dsolve(cudaStream_t s, int n);
template <typename T> int (*solve)(cudaStream_t, int);
template <> auto solve<float> = ssolve;
template <> auto solve<double> = dsolve;

struct Handle {
  cudaStream_t s;
  bool graph_testing = true;
  void begin_capture() {
    if (!graph_testing)
      return;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  }
  void end_capture() {
    if (!graph_testing)
      return;
    cudaGraph_t g;
    cudaStreamEndCapture(s, &g);
  }
};

namespace testing {
template <typename T, typename... P> int solve(Handle &h, P &&...p) {
  h.begin_capture();
  int status = ::solve<T>(h.s, p...);
  // CHECK: variable-template.cu:[[@LINE-1]]:16: error: call to '{{[sd]}}solve' reaches 'cudaStreamSynchronize' (solve_impl.cu:5)
  h.end_capture();
  return status;
}
} // namespace testing

void run(Handle &h) {
  testing::solve<float>(h, 4);
  testing::solve<double>(h, 4);
}
