#include "ops.h"
#ifndef FROM_DATABASE
#error "compile flags from the database were not applied"
#endif
void capture(cudaStream_t s) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  ops_sync();
  cudaStreamEndCapture(s, &g);
}
