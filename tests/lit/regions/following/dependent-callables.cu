// A callable held in a local of a template parameter's type, built with
// parentheses (`F f(s, 1);` is a ParenListExpr without a type until the
// template is instantiated) or braces, in a template the file never
// instantiates: calls through it are not followed, and nothing crashes
// (rocFFT's and rocPRIM's HIP tests crashed the analysis: issue 23, f53eb29).
// RUN: %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock | FileCheck %s --allow-empty --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

template <class F> void run_parens(cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  F f(s, 1);
  f();
  cudaStreamEndCapture(s, g);
}

template <class F> void run_braces(cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  F f{s, 1};
  f();
  cudaStreamEndCapture(s, g);
}

// Aggregates with a base and unions given in braces hold no callable field
// by position.
struct Base { int id; };
struct WithBase : Base { void (*fn)(cudaStream_t); };
union Either { int i; void (*fn)(cudaStream_t); };
void run_aggregates(cudaStream_t s, cudaGraph_t *g) {
  WithBase w{{1}, nullptr};
  Either e{3};
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (w.fn)
    w.fn(s);
  cudaStreamEndCapture(s, g);
  (void)e;
}
