// Mock at::cuda::CUDAGraph for capture-lint's tests.
#pragma once
#include <utility>
typedef enum cudaStreamCaptureMode {
  cudaStreamCaptureModeGlobal = 0,
  cudaStreamCaptureModeThreadLocal = 1,
  cudaStreamCaptureModeRelaxed = 2
} cudaStreamCaptureMode;
namespace at::cuda {
using MempoolId_t = std::pair<unsigned long long, unsigned long long>;
struct CUDAGraph {
  void capture_begin(MempoolId_t pool = {0, 0},
                     cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal);
  void capture_end();
  void replay();
};
} // namespace at::cuda
