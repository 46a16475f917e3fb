// RUN: not %capture-lint --quiet --checks=capture-unended-region %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
// A begin without an end is a warning (exit 1), not a crash or a hang.
// RUN: not %capture-lint --quiet --checks=capture-unended-region %s -- %cuda-mock > /dev/null
#include <cuda_runtime.h>

void opensOnly(cudaStream_t s) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  // CHECK: :[[@LINE-1]]:3: warning: capture of stream 's' begun here is never ended in 'opensOnly', and no function in this translation unit ends it: no path reaches a matching 'cudaStreamEndCapture'
}

void endsOnOnePath(cudaStream_t s, bool b) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (b)
    cudaStreamEndCapture(s, &g);
}
