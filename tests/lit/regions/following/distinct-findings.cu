// Issue 11, item 19: each offending call is its own finding, with its own
// notes and its own API in the JSON output.
// RUN: not %capture-lint --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
// RUN: not %capture-lint --quiet --format=json %s -- %cuda-mock \
// RUN:   | FileCheck %s --check-prefix=JSON
#include <cuda_runtime.h>

void finish(cudaStream_t s, void *p) {
  cudaStreamSynchronize(s);
  cudaFree(p);
  cudaStreamSynchronize(s);
  cudaDeviceSynchronize();
}

void step(cudaStream_t s, cudaGraph_t *g, void *p) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  finish(s, p);
  // CHECK-DAG: :[[@LINE-1]]:3: error: call to 'finish' reaches 'cudaStreamSynchronize' (distinct-findings.cu:10)
  // CHECK-DAG: :[[@LINE-2]]:3: error: call to 'finish' reaches 'cudaFree' (distinct-findings.cu:11)
  // CHECK-DAG: :[[@LINE-3]]:3: error: call to 'finish' reaches 'cudaStreamSynchronize' (distinct-findings.cu:12)
  // CHECK-DAG: :[[@LINE-4]]:3: error: call to 'finish' reaches 'cudaDeviceSynchronize' (distinct-findings.cu:13)
  cudaStreamEndCapture(s, g);
}
// JSON-DAG: "api": "cudaFree"
// JSON-DAG: "api": "cudaStreamSynchronize"
// JSON-DAG: "api": "cudaStreamSynchronize"
// JSON-DAG: "api": "cudaDeviceSynchronize"
