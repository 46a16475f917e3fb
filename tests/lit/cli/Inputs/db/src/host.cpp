#include <cuda_runtime.h>
void capture(cudaStream_t s) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaStreamSynchronize(s);
  cudaStreamEndCapture(s, &g);
}
