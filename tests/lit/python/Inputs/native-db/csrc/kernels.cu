// The CUDA kernel of the operator ops.cpp registers: it synchronizes.
#include <cuda_runtime.h>
#include <ATen/ATen.h>
at::Tensor step_cuda(const at::Tensor &x) {
  cudaDeviceSynchronize();
  return x;
}
