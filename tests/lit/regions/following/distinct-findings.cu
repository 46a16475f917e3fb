// Issue 11, item 19: each offending call is its own finding, with its own
// notes and its own API in the JSON output; the text output groups the
// hazards reached through one call (issue 27, item 2).
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet --format=json %s -- %cuda-mock \
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

// JSON and SARIF name the call that reaches each hazard (via) and where the
// hazard itself is; the finding's place is the call in the region (line 19).
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet --format=json %s -- %cuda-mock > %t.json
// RUN: %python -c "import json,sys; print(sorted((f['api'], f['via'], f['line'], f['hazard_at']['line']) for f in json.load(open(sys.argv[1]))['findings']))" %t.json | FileCheck %s --check-prefix=VIA
// VIA: [('cudaDeviceSynchronize', 'finish', 19, 14), ('cudaFree', 'finish', 19, 12), ('cudaStreamSynchronize', 'finish', 19, 11), ('cudaStreamSynchronize', 'finish', 19, 13)]
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet --format=sarif %s -- %cuda-mock > %t.sarif
// RUN: %python -c "import json,sys; print(sorted((r['properties']['via'], r['properties']['hazardLocation']['region']['startLine']) for r in json.load(open(sys.argv[1]))['runs'][0]['results']))" %t.sarif | FileCheck %s --check-prefix=SARIF
// SARIF: [('finish', 11), ('finish', 12), ('finish', 13), ('finish', 14)]
