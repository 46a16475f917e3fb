// RUN: not %capture-lint --quiet --checks=capture-allocation %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>
#include <cuda.h>

#define CUDA_CHECK(x)                                                          \
  do {                                                                         \
    if ((x) != cudaSuccess)                                                    \
      return;                                                                  \
  } while (0)

void global(cudaStream_t s) {
  cudaGraph_t g;
  float *p = nullptr, *q = nullptr;
  CUDA_CHECK(cudaMalloc(&q, 64)); // before the region: fine
  CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  cudaMalloc(&p, 64); // unchecked: a checked one ends the paths here
  // CHECK: :[[@LINE-1]]:3: error: 'cudaMalloc' allocates device memory: in a global-mode capture it fails with cudaErrorStreamCaptureUnsupported (900) and invalidates the capture; allocate before the capture begins
  // CHECK: :[[@LINE-3]]:14: note: capture of stream 's' begins here, mode global
  cudaFree(q);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaFree' frees device memory
  cudaMallocHost((void **)&p, 64);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaMallocHost' allocates pinned host memory
  cudaMallocManaged((void **)&p, 64);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaMallocManaged' allocates managed memory
  cudaMallocAsync((void **)&p, 64, s); // graph memory node: fine
  cudaFreeAsync(p, s);                 // graph memory node: fine
  CUDA_CHECK(cudaStreamEndCapture(s, &g));
  cudaFree(p); // after the region: fine
}

void relaxed(cudaStream_t s) {
  cudaGraph_t g;
  void *p;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  cudaMalloc(&p, 64);
  // CHECK: :[[@LINE-1]]:3: remark: 'cudaMalloc' allocates device memory: in a relaxed-mode capture it is allowed: it runs once, at capture time, and every replay reuses that memory; make sure the memory outlives the graph
  // CHECK: :[[@LINE-3]]:3: note: capture of stream 's' begins here, mode relaxed
  cudaStreamEndCapture(s, &g);
}

void unknownMode(cudaStream_t s, cudaStreamCaptureMode mode) {
  cudaGraph_t g;
  void *p;
  cudaStreamBeginCapture(s, mode);
  cudaMalloc(&p, 64);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaMalloc' allocates device memory: in a capture whose mode is not a constant (checked as global) it fails
  // CHECK: :[[@LINE-3]]:3: note: capture of stream 's' begins here, mode unknown (not a constant; checked as global)
  cudaStreamEndCapture(s, &g);
}

void driver(CUstream s) {
  CUgraph g;
  CUdeviceptr d;
  cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
  cuMemAlloc(&d, 64);
  // CHECK: :[[@LINE-1]]:3: error: 'cuMemAlloc' allocates device memory
  cuMemAllocAsync(&d, 64, s); // fine
  cuStreamEndCapture(s, &g);
}

// Early return ends the path; the end inside a branch ends only that path.
void branches(cudaStream_t s, bool early, bool stop) {
  cudaGraph_t g;
  void *p;
  if (early)
    return;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (stop) {
    cudaStreamEndCapture(s, &g);
    cudaMalloc(&p, 1); // after the end on this path: fine
    return;
  }
  cudaMalloc(&p, 2);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaMalloc' allocates
  cudaStreamEndCapture(s, &g);
}

// Begin and end inside a loop: the allocation after the end (next
// iteration, before the begin) is outside.
void loop(cudaStream_t s, int n) {
  cudaGraph_t g;
  void *p;
  for (int i = 0; i < n; ++i) {
    cudaMalloc(&p, 1);
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    cudaFree(p);
    // CHECK: :[[@LINE-1]]:5: error: 'cudaFree' frees device memory
    cudaStreamEndCapture(s, &g);
  }
}

// An end on one path only: the code after the join may still be capturing.
void oneSidedEnd(cudaStream_t s, bool b) {
  cudaGraph_t g;
  void *p;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (b)
    cudaStreamEndCapture(s, &g);
  cudaMalloc(&p, 3);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaMalloc' allocates
}

// Ending another stream's capture does not end this one.
void otherStream(cudaStream_t s, cudaStream_t t) {
  cudaGraph_t g;
  void *p;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaStreamEndCapture(t, &g);
  cudaMalloc(&p, 4);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaMalloc' allocates
  cudaStreamEndCapture(s, &g);
}

// Lambdas called in the region are followed; lambdas only defined are not.
void lambdas(cudaStream_t s) {
  cudaGraph_t g;
  void *p;
  auto alloc = [&] { cudaMalloc(&p, 5); };
  auto unused = [&] { cudaMalloc(&p, 6); };
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  alloc();
  // CHECK: :[[@LINE-1]]:3: error: call to 'lambda' reaches 'cudaMalloc'
  // CHECK: :[[@LINE-5]]:22: note: 'cudaMalloc' is called here
  cudaStreamEndCapture(s, &g);
}

// An empty region is fine.
void empty(cudaStream_t s) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaStreamEndCapture(s, &g);
}
