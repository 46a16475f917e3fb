// Issue 11, item 19: each offending call is its own finding, with its own
// notes and its own API in the JSON output; the text output groups the
// hazards reached through one call (issue 27, item 2).
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
  // In text, one diagnostic at the call with a note per hazard:
  // CHECK: :[[@LINE-2]]:3: error: call to 'finish' reaches 4 capture hazards: 4 errors [capture-allocation,capture-sync-call]
  // CHECK-DAG: distinct-findings.cu:11:3: note: ({{[1-4]}}/4, error) 'cudaStreamSynchronize' (distinct-findings.cu:11)
  // CHECK-DAG: distinct-findings.cu:12:3: note: ({{[1-4]}}/4, error) 'cudaFree' (distinct-findings.cu:12)
  // CHECK-DAG: distinct-findings.cu:13:3: note: ({{[1-4]}}/4, error) 'cudaStreamSynchronize' (distinct-findings.cu:13)
  // CHECK-DAG: distinct-findings.cu:14:3: note: ({{[1-4]}}/4, error) 'cudaDeviceSynchronize' (distinct-findings.cu:14)
  cudaStreamEndCapture(s, g);
}
// JSON-DAG: "api": "cudaFree"
// JSON-DAG: "api": "cudaStreamSynchronize"
// JSON-DAG: "api": "cudaStreamSynchronize"
// JSON-DAG: "api": "cudaDeviceSynchronize"
