// capture-unchecked-end: what it reports, and the legal look-alikes beside it.
// RUN: %expect-exit 1 %capture-lint --quiet --checks=capture-unchecked-end %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess)                                                     \
      return e_;                                                               \
  } while (0)

__global__ void k(float *p);

void discarded(cudaStream_t s, float *p, cudaGraphExec_t *exec) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  k<<<1, 1, 0, s>>>(p);
  cudaStreamEndCapture(s, &g);
  // CHECK: :[[@LINE-1]]:3: warning: the result of 'cudaStreamEndCapture' is discarded: when the capture failed
  cudaGraphInstantiate(exec, g, 0);
  // CHECK: :[[@LINE-1]]:3: warning: the result of 'cudaGraphInstantiate' is discarded: instantiating the null graph
  cudaGraphLaunch(*exec, s);
}

void storedUnread(cudaStream_t s, float *p, cudaGraphExec_t *exec) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  k<<<1, 1, 0, s>>>(p);
  cudaError_t err = cudaStreamEndCapture(s, &g);
  // CHECK: :[[@LINE-1]]:21: warning: the result of 'cudaStreamEndCapture' is stored in 'err', which nothing reads
  err = cudaGraphInstantiate(exec, g, 0);
  // CHECK: :[[@LINE-1]]:9: warning: the result of 'cudaGraphInstantiate' is stored in 'err', which nothing reads
}

// The left side of a comma is discarded too (what is left of a check
// macro's first argument when the macro is taken away).
void commaDiscards(cudaStream_t s, float *p, cudaGraphExec_t *exec) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  k<<<1, 1, 0, s>>>(p);
  (cudaStreamEndCapture(s, &g), "after the capture");
  // CHECK: :[[@LINE-1]]:4: warning: the result of 'cudaStreamEndCapture' is discarded
  cudaGraphInstantiate(exec, g, 0) == cudaSuccess ? (void)0 : (void)1;
  cudaGraphLaunch(*exec, s);
}

cudaError_t checked(cudaStream_t s, float *p, cudaGraphExec_t *exec) {
  cudaGraph_t g;
  CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  k<<<1, 1, 0, s>>>(p);
  CUDA_CHECK(cudaStreamEndCapture(s, &g)); // checked by the macro
  cudaError_t err = cudaGraphInstantiate(exec, g, 0);
  if (err != cudaSuccess) // stored, then tested
    return err;
  return cudaSuccess;
}

cudaError_t returned(cudaStream_t s, float *p, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  k<<<1, 1, 0, s>>>(p);
  return cudaStreamEndCapture(s, g); // the caller checks it
}

void discardedOnPurpose(cudaStream_t s, float *p) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (p == nullptr) {
    cudaGraph_t broken;
    // Ended only to leave the stream usable on the error path.
    (void)cudaStreamEndCapture(s, &broken);
    return;
  }
  cudaGraph_t g;
  if (cudaStreamEndCapture(s, &g) != cudaSuccess) // tested in the condition
    return;
}

void stopOnError(cudaStream_t s, float *p, cudaGraph_t *out) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (cudaMemsetAsync(p, 0, 4, s) != cudaSuccess) {
    // Ended only to stop the capture; its graph is dropped: no finding.
    cudaGraph_t dropped = nullptr;
    cudaStreamEndCapture(s, &dropped);
    cudaGetLastError();
    return;
  }
  cudaStreamEndCapture(s, out);
  // CHECK: :[[@LINE-1]]:3: warning: the result of 'cudaStreamEndCapture' is discarded
}

// A closer: it ends the capture its callers begin, so its end is read too.
struct Graph {
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  void begin(cudaStream_t s) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  }
  void end(cudaStream_t s) {
    cudaStreamEndCapture(s, &graph);
    // CHECK: :[[@LINE-1]]:5: warning: the result of 'cudaStreamEndCapture' is discarded
    // CHECK: :[[@LINE-3]]:8: note: 'Graph::end' ends a capture its callers begin
    cudaGraphInstantiate(&exec, graph, 0);
    // CHECK: :[[@LINE-1]]:5: warning: the result of 'cudaGraphInstantiate' is discarded
  }
};

// In code no path reaches: nothing ends there.
constexpr bool kUseGraphs = false;
void disabled(cudaStream_t s, float *p, cudaGraphExec_t *exec) {
  if (kUseGraphs) {
    cudaGraph_t g;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    k<<<1, 1, 0, s>>>(p);
    cudaStreamEndCapture(s, &g);
    cudaGraphInstantiate(exec, g, 0);
  }
}

// Checked through the thread's last error by the next statement.
#define cudaCheckErrors(msg)                                                   \
  do {                                                                         \
    cudaError_t __err = cudaGetLastError();                                    \
    if (__err != cudaSuccess)                                                  \
      return;                                                                  \
  } while (0)

void lastErrorChecked(cudaStream_t s, float *p, cudaGraphExec_t *exec) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  k<<<1, 1, 0, s>>>(p);
  cudaStreamEndCapture(s, &g);
  cudaCheckErrors("end capture failed");
  cudaGraphInstantiate(exec, g, 0);
  cudaGetLastError(); // read, and thrown away: no check
  // CHECK: :[[@LINE-2]]:3: warning: the result of 'cudaGraphInstantiate' is discarded
}
