// A capture region for capture-lint --confirm; probe.json is what the probe
// would report had it run on another machine (a checkout in /gpu/box).
#include <cuda_runtime.h>
void step(cudaStream_t s, float **buf) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMalloc((void **)buf, 64);
  cudaStreamSynchronize(s);
  cudaStreamEndCapture(s, &g);
}
void never_run(cudaStream_t s) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaDeviceSynchronize();
  cudaStreamEndCapture(s, &g);
}
