#include <cuda_runtime.h>
__global__ void k(float *p) {}
void run(cudaStream_t s, float *d) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  k<<<1, 1, 0, s>>>(d);
  cudaStreamEndCapture(s, &g);
}
