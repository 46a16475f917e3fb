#include "copy.h"

void step(void *a, const void *b, size_t n, cudaStream_t s, Kind chosen) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  copy(a, b, n, Kind::Async, s);  // quiet
  stage(a, b, n, Kind::Async, s); // quiet, through stage.cu
  sort(a, n, s, false);           // quiet
  copy(a, b, n, Kind::Sync, s);
  stage(a, b, n, Kind::Peer, s);
  sort(a, n, s, true);
  copy(a, b, n, chosen, s);
  cudaStreamEndCapture(s, &g);
}
