#include <cuda_runtime.h>
#define CUDA_CHECK(x) do { if ((x) != cudaSuccess) return; } while (0)
__global__ void kernel(float *p) {}
void run(cudaStream_t stream, float *d, const float *h) {
  cudaGraph_t g;
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  kernel<<<1, 32>>>(d);
  kernel<<<1, 32, 128>>>(d);
  cudaMemcpyAsync(d, h, 16, cudaMemcpyHostToDevice, 0);
  cudaMemsetAsync(d, 0, 16);
  CUDA_CHECK(cudaMemsetAsync(d, 0, 16, NULL));
  cudaStreamEndCapture(stream, &g);
}
