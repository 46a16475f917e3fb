// Branches on values copied back from the device; the status codes of the
// copies themselves are not device values (a regression test: `&flag` in a
// call's arguments once tainted the call's result).
// RUN: not %capture-lint --quiet --checks=capture-shape-branch %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

void run(cudaStream_t s, int *d, int *hbuf) {
  cudaGraph_t g;
  int flag = 0;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaError_t err = cudaMemcpyAsync(&flag, d, sizeof(int),
                                    cudaMemcpyDeviceToHost, s);
  if (err != cudaSuccess) // a host status: fine
    return;
  cudaMemcpyAsync(hbuf, d, 4 * sizeof(int), cudaMemcpyDeviceToHost, s);
  if (hbuf != nullptr) { // the pointer, not the data: fine
  }
  int total = flag * 2;
  if (total > 0) {
    // CHECK: :[[@LINE-1]]:3: warning: 'if' condition depends on 'total' (a value read back from the device): the capture records only the path taken now, and every replay repeats it whatever the value; read the value before the capture begins and capture one graph per value, or decide on the device
  }
  while (hbuf[0] > 1) {
    // CHECK: :[[@LINE-1]]:3: warning: 'while' condition depends on 'hbuf' (a value read back from the device)
  }
  cudaStreamEndCapture(s, &g);
}
