// Issue 11, item 14: a shape or a device value that reaches a branch
// through a helper's return value.
// RUN: not %capture-lint --quiet --checks=capture-shape-branch %s -- %torch-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAGraph.h>

static int64_t rows(const at::Tensor &t) { return t.size(0); }
static int64_t blocks(int64_t n) { return (n + 255) / 256; }
static bool any_set(const at::Tensor &flags) { return flags.item<bool>(); }

void step(const at::Tensor &x, const at::Tensor &flags, int64_t n) {
  at::cuda::CUDAGraph graph;
  graph.capture_begin();
  if (rows(x) > 8) {
    // CHECK: :[[@LINE-1]]:3: remark: 'if' condition depends on 'rows' (a tensor shape)
  }
  if (blocks(n) > 2) { // depends on a plain integer: quiet
  }
  while (any_set(flags)) {
    // CHECK: :[[@LINE-1]]:3: warning: 'while' condition depends on 'any_set' (a value read back from the device)
  }
  graph.capture_end();
}
