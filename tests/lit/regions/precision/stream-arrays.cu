// Issue 11, item 1: begins and ends are loops over an array of streams under
// the same condition; the zero-trip path of the end loop must not keep the
// region open past it.
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

__global__ void step(float *x) {}

void run(cudaStream_t *streams, cudaGraph_t *graphs, int n, bool use_graphs,
         float *x) {
  if (use_graphs)
    for (int i = 0; i < n; ++i)
      cudaStreamBeginCapture(streams[i], cudaStreamCaptureModeGlobal);
  for (int i = 0; i < n; ++i)
    step<<<1, 1, 0, streams[i]>>>(x);
  cudaMemset(x, 0, 4);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaMemset'
  if (use_graphs) {
    for (int i = 0; i < n; ++i)
      cudaStreamEndCapture(streams[i], &graphs[i]);
  }
  cudaStreamSynchronize(streams[0]); // after the region: quiet
}
