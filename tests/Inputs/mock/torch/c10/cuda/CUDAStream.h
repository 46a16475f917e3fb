// Mock c10::cuda::CUDAStream and capture status helpers.
#pragma once
namespace c10::cuda {
class CUDAStream {
public:
  void synchronize() const;
  bool query() const;
};
CUDAStream getCurrentCUDAStream(signed char device = -1);
CUDAStream getDefaultCUDAStream(signed char device = -1);
enum class CaptureStatus : int { None = 0, Active = 1, Invalidated = 2 };
CaptureStatus currentStreamCaptureStatusMayInitCtx();
} // namespace c10::cuda
namespace at::cuda {
using c10::cuda::CaptureStatus;
using c10::cuda::CUDAStream;
using c10::cuda::getCurrentCUDAStream;
using c10::cuda::getDefaultCUDAStream;
inline CaptureStatus currentStreamCaptureStatus() {
  return c10::cuda::currentStreamCaptureStatusMayInitCtx();
}
} // namespace at::cuda
