/* A plain C program that captures through the runtime API (library samples
   and C drivers are written so). */
#include <cuda_runtime_api.h>
int main(void) { cudaStream_t s; cudaGraph_t g; cudaStreamCreate(&s);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaDeviceSynchronize();
  cudaStreamEndCapture(s, &g); return 0; }
