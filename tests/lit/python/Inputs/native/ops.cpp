// A C++ extension: an operator with a CUDA and a CPU kernel, and a pybind11
// module with a function and a lambda.
#include <cuda_runtime.h>
#include <torch/extension.h>

namespace {
void drain(cudaStream_t s) {
  cudaStreamSynchronize(s);
}

at::Tensor step_cuda(const at::Tensor &x) {
  drain(nullptr);
  return x;
}

// Never runs on the CUDA tensors of a capture.
at::Tensor step_cpu(const at::Tensor &x) {
  cudaDeviceSynchronize();
  return x;
}

at::Tensor scale(const at::Tensor &x) { return x; }

at::Tensor fused(const at::Tensor &x) {
  void *p = nullptr;
  cudaMalloc(&p, 64);
  return x;
}
} // namespace

TORCH_LIBRARY(myext, m) {
  m.def("step(Tensor x) -> Tensor");
  m.def("fused(Tensor x) -> Tensor", TORCH_FN(fused));
}

TORCH_LIBRARY_IMPL(myext, CUDA, m) {
  m.impl("step", &step_cuda);
}

TORCH_LIBRARY_IMPL(myext, CPU, m) {
  m.impl("myext::step", step_cpu);
}

PYBIND11_MODULE(fastops, m) {
  m.def("scale", &scale, pybind11::arg("x"));
  m.def("lazy_init", [](int n) {
    void *p = nullptr;
    cudaMallocManaged(&p, n);
  });
}

// A C library's export, which Python loads with ctypes or cffi.
extern "C" int flush_all(int device) {
  cudaDeviceSynchronize();
  return device;
}

extern "C" int version() { return 3; }
