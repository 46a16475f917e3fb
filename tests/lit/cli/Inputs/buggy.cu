#include <cuda_runtime.h>
static void flush() { cudaDeviceSynchronize(); }
void run(cudaStream_t s, float *d) {
  cudaGraph_t g;
  void *p;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMalloc(&p, 16);
  flush();
  cudaStreamEndCapture(s, &g);
}
