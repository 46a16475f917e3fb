// RUN: not %capture-lint --quiet --checks=capture-shape-branch %s -- %torch-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAGraph.h>

void step(const at::Tensor &x, int layers, bool flag) {
  at::cuda::CUDAGraph graph;
  graph.capture_begin();
  if (x.size(0) > 8) {
    // CHECK: :[[@LINE-1]]:3: remark: 'if' condition depends on 'at::TensorBase::size' (a tensor shape): the capture records only the path taken now, and every replay repeats it whatever the shape
    // CHECK: :[[@LINE-3]]:3: note: capture into graph 'graph' begins here, mode global
  }
  int64_t n = x.numel();
  int64_t half = n / 2;
  while (half > 1) {
    // CHECK: :[[@LINE-1]]:3: remark: 'while' condition depends on 'half' (a tensor shape)
    // CHECK: :[[@LINE-3]]:11: note: 'half' gets its value from 'at::TensorBase::numel' here
    half /= 2;
  }
  for (int64_t i = 0; i < x.dim(); ++i) {
    // CHECK: :[[@LINE-1]]:3: remark: 'for' condition depends on 'at::TensorBase::dim'
  }
  auto y = x.sizes()[0] == 1 ? x : x.add(x);
  // CHECK: :[[@LINE-1]]:12: remark: '?:' condition depends on 'at::TensorBase::sizes'
  switch (x.dim()) {
  // CHECK: :[[@LINE-1]]:3: remark: 'switch' condition depends on 'at::TensorBase::dim'
  default:
    break;
  }
  float v = x.item<float>();
  if (v > 0.5f) {
    // CHECK: :[[@LINE-1]]:3: warning: 'if' condition depends on 'v' (a value read back from the device): the capture records only the path taken now, and every replay repeats it whatever the value
  }
  // Constant trip counts and ordinary parameters are not findings.
  for (int i = 0; i < 4; ++i) {
  }
  for (int l = 0; l < layers; ++l) {
  }
  if (flag) {
  }
  graph.capture_end();
  if (x.size(0) > 8) { // outside the region
  }
}
