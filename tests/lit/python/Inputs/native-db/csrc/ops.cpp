// The operator step, registered for CUDA here, defined in kernels.cu.
#include <torch/library.h>
#include <ATen/ATen.h>
at::Tensor step_cuda(const at::Tensor &x);
TORCH_LIBRARY(myext, m) { m.def("step(Tensor x) -> Tensor"); }
TORCH_LIBRARY_IMPL(myext, CUDA, m) { m.impl("step", &step_cuda); }
