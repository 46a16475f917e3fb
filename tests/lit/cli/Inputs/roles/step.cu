#include "graph.h"

void flush(cudaStream_t s) {
  if (is_capturing(s))
    return;
  cudaDeviceSynchronize();
}

void step(cudaStream_t s, float *d, cudaGraph_t *g) {
  begin_graph(s);
  cudaMemsetAsync(d, 0, 64, s);
  cudaStreamSynchronize(s);
  flush(s);
  end_graph(s, g);
  cudaStreamSynchronize(s);
}

void record(Recorder &r, float *d, cudaGraph_t *g) {
  r.start();
  cudaMalloc(&d, 64);
  r.stop(g);
  cudaFree(d);
}

void lambdas(cudaStream_t s, float *d) {
  capture_with(s, [&] { cudaMalloc(&d, 64); });
  cudaFree(d);
}
