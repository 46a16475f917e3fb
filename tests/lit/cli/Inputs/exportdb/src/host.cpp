#include <cuda_runtime.h>
#include "graph_ops.h"
void replay(cudaStream_t s) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaStreamSynchronize(s);
  cudaStreamEndCapture(s, &g);
}
