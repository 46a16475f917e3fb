// ShapeFunctions and TensorClasses are configurable through .clang-tidy
// style options.
// RUN: %capture-lint --quiet --checks=capture-shape-branch %s -- %torch-mock \
// RUN:   | FileCheck %s --check-prefix=DEFAULT --implicit-check-not="{{(warning|error|remark)}}:"
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/input.cpp
// RUN: printf 'CheckOptions:\n  capture-shape-branch.ShapeFunctions: rows\n  capture-shape-branch.TensorClasses: Matrix\n' > %t/.clang-tidy
// RUN: %capture-lint --quiet --checks=capture-shape-branch %t/input.cpp -- %torch-mock \
// RUN:   | FileCheck %s --check-prefix=CONFIG --implicit-check-not="{{(warning|error|remark)}}:"
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAGraph.h>

struct Matrix {
  int rows() const;
  int size(int) const;
};

void run(at::cuda::CUDAGraph &g, const at::Tensor &x, const Matrix &m) {
  g.capture_begin();
  if (x.size(0) > 1) {
    // DEFAULT: :[[@LINE-1]]:3: remark: 'if' condition depends on 'at::TensorBase::size'
  }
  if (m.rows() > 1) {
    // CONFIG: :[[@LINE-1]]:3: remark: 'if' condition depends on 'Matrix::rows'
  }
  if (m.size(0) > 1) { // not a shape function in either configuration
  }
  std::vector<int> v(3);
  for (std::size_t i = 0; i < v.size(); ++i) { // std::vector is no tensor
  }
  g.capture_end();
}
