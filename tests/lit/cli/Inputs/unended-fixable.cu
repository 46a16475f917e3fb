#include <cuda_runtime.h>
__global__ void kernel(float *d);
cudaStream_t pick();

#define RETURN_IF_ERROR(x)                                                     \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess)                                                     \
      return e_;                                                               \
  } while (0)

struct Runner {
  cudaStream_t stream_;
  cudaGraph_t graph_;
  cudaError_t capture(float *d, bool bad) {
    cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal);
    kernel<<<1, 32, 0, stream_>>>(d);
    if (bad)
      return cudaErrorIllegalState;
    return cudaStreamEndCapture(stream_, &graph_);
  }
};

cudaError_t braced(cudaStream_t s, float *d, bool bad, cudaGraph_t *out) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  kernel<<<1, 32, 0, s>>>(d);
  if (bad) {
	return cudaErrorIllegalState;
  }
  return cudaStreamEndCapture(s, out);
}

cudaError_t localStream(float *d, bool bad, cudaGraph_t *out) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  kernel<<<1, 32, 0, s>>>(d);
  if (bad) return cudaErrorIllegalState;
  return cudaStreamEndCapture(s, out);
}

cudaError_t outOfScope(float *d, bool bad, cudaGraph_t *out) {
  {
    cudaStream_t inner;
    cudaStreamCreate(&inner);
    cudaStreamBeginCapture(inner, cudaStreamCaptureModeGlobal);
    kernel<<<1, 32, 0, inner>>>(d);
    if (!bad)
      return cudaStreamEndCapture(inner, out);
  }
  return cudaErrorIllegalState;
}

cudaError_t streamFromCall(float *d, bool bad, cudaGraph_t *out) {
  cudaStreamBeginCapture(pick(), cudaStreamCaptureModeGlobal);
  if (bad)
    return cudaErrorIllegalState;
  return cudaStreamEndCapture(pick(), out);
}

cudaError_t inMacro(cudaStream_t s, float *d, cudaGraph_t *out) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  RETURN_IF_ERROR(cudaMemsetAsync(d, 0, 16, s));
  return cudaStreamEndCapture(s, out);
}
