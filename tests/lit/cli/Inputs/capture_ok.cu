#include <cuda_runtime.h>
void run(cudaStream_t s, float *d) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(d, 0, 16, s);
  cudaStreamEndCapture(s, &g);
}
