#include <cuda_runtime.h>
// the bad changes of lsp_bad_change.py touch this line
// and this one
void capture(cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaStreamEndCapture(s, g);
}
