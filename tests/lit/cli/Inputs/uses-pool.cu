#include <cuda_runtime.h>
void *poolAlloc(unsigned long n);
void run(cudaStream_t s) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  void *p = poolAlloc(64);
  cudaStreamEndCapture(s, &g);
}
