#include <cuda_runtime.h>
#define SYNC_ALL() cudaDeviceSynchronize()

void step(cudaStream_t s, cudaGraph_t *g, void **p) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaDeviceSynchronize(); /* NOLINT(capture-sync-call) */
  cudaMalloc(p, 64); // the pool grows once: NOLINT
  SYNC_ALL(); // NOLINT(capture-sync-call)
  // NOLINTBEGIN(capture-allocation)
  cudaMalloc(p, 128);
  cudaMalloc(p, 256);
  // NOLINTEND(capture-allocation)
  cudaMalloc(p, 512);
  cudaStreamSynchronize(s); // NOLINT(capture-allocation): another check
  cudaStreamEndCapture(s, g);
}
