// RUN: not %capture-lint --quiet %s -- %torch-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/cuda.h>

at::Tensor forward(const at::Tensor &x, const at::Tensor &w) {
  return at::matmul(x, w);
}

void capture(at::cuda::CUDAGraph &graph, at::Tensor x, at::Tensor w) {
  at::Tensor static_out;
  graph.capture_begin();
  static_out = forward(x, w);
  float scale = x.item<float>();
  // CHECK: :[[@LINE-1]]:19: error: 'at::Tensor::item' copies a device value to the host and synchronizes the stream: in a global-mode capture it fails with cudaErrorStreamCaptureUnsupported (900) at its synchronize and invalidates the capture; capture_end then reports cudaErrorStreamCaptureInvalidated (901)
  // CHECK: :[[@LINE-4]]:3: note: capture into graph 'graph' begins here, mode global
  at::Tensor host = x.cpu();
  // CHECK: :[[@LINE-1]]:23: error: 'at::Tensor::cpu' copies a CUDA tensor to the host
  at::Tensor host2 = x.to(at::kCPU);
  // CHECK: :[[@LINE-1]]:24: error: 'at::Tensor::to' copies a CUDA tensor to the host
  at::Tensor half = x.to(at::ScalarType::Half); // a dtype change: fine
  at::Tensor dev = x.to(at::Device(at::kCUDA)); // stays on the device: fine
  at::Tensor idx = x.nonzero();
  // CHECK: :[[@LINE-1]]:22: error: 'at::Tensor::nonzero' reads the number of non-zero elements back to the host
  torch::cuda::synchronize();
  // CHECK: :[[@LINE-1]]:3: error: 'torch::cuda::synchronize' waits for all work on the device
  at::cuda::getCurrentCUDAStream().synchronize();
  // CHECK: :[[@LINE-1]]:36: error: 'c10::cuda::CUDAStream::synchronize' waits for the stream to drain
  auto legacy = at::cuda::getDefaultCUDAStream();
  // CHECK: :[[@LINE-1]]:17: error: 'at::cuda::getDefaultCUDAStream' returns the default (legacy) CUDA stream
  at::Tensor tmp = at::empty({4});
  // CHECK: :[[@LINE-1]]:20: remark: 'at::empty' allocates from the graph's private memory pool: legal under capture, but the address is frozen into the graph and every replay writes this same buffer; allocate it before the capture if it must outlive one replay
  if (at::cuda::currentStreamCaptureStatus() == at::cuda::CaptureStatus::None)
    torch::cuda::synchronize(); // guarded: not reached while capturing
  graph.capture_end();
  float after = x.item<float>(); // after the region: fine
  (void)scale, (void)after;
}

void relaxedGraph(at::cuda::CUDAGraph &graph, at::Tensor x) {
  graph.capture_begin({0, 0}, cudaStreamCaptureModeRelaxed);
  x.item<float>();
  // CHECK: :[[@LINE-1]]:5: error: 'at::Tensor::item' {{.*}} in a relaxed-mode capture it fails
  graph.capture_end();
}

// Generator state: PyTorch refuses it during capture.
#include <ATen/cuda/CUDAGeneratorImpl.h>
void seeded(at::cuda::CUDAGraph &graph, at::CUDAGeneratorImpl &gen) {
  gen.set_current_seed(42); // before: fine
  graph.capture_begin();
  gen.set_current_seed(7);
  // CHECK: :[[@LINE-1]]:7: error: 'at::CUDAGeneratorImpl::set_current_seed' reads or sets the CUDA generator's host-side state
  at::manual_seed(7);
  // CHECK: :[[@LINE-1]]:3: error: 'at::manual_seed' reads or sets the CUDA generator's host-side state
  graph.capture_end();
}
