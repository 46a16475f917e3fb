// Issue 11, cause G (seen in NVIDIA/MatX): an allocator wrapper switches on
// the kind of memory it recorded at allocation, and one case frees (or
// allocates) stream-ordered, which capture records. The other cases serve
// other kinds of memory; which one runs depends on data the analysis cannot
// see, so a region that reaches the wrapper through a call is not told about
// them. The same calls without a stream-ordered sibling, or written in the
// region itself, are still reported.
// RUN: not %capture-lint --quiet --checks=capture-allocation %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>
#include <map>

enum Kind { Device, Pinned, Async };
struct Record {
  Kind kind;
  cudaStream_t stream;
};
static std::map<void *, Record> allocations;

void release(void *p) {
  auto it = allocations.find(p);
  switch (it->second.kind) {
  case Device:
    cudaFree(p);
    break;
  case Pinned:
    cudaFreeHost(p);
    break;
  case Async:
    cudaFreeAsync(p, it->second.stream);
    break;
  }
}

void *obtain(size_t n, cudaStream_t s, bool ordered) {
  void *p = nullptr;
  if (ordered)
    cudaMallocAsync(&p, n, s);
  else if (n > 4096)
    cudaMalloc(&p, n);
  else
    cudaMallocHost(&p, n);
  return p;
}

// No stream-ordered sibling: whatever the kind, this frees synchronously.
void releaseOld(void *p, bool pinned) {
  if (pinned)
    cudaFreeHost(p);
  else
    cudaFree(p);
}

void step(cudaStream_t s, void *tmp, void *old, bool pinned) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  release(tmp);
  void *p = obtain(64, s, true);
  releaseOld(old, pinned);
  // CHECK: :[[@LINE-1]]:3: error: call to 'releaseOld' reaches 2 capture hazards: 2 errors
  // CHECK-DAG: note: ({{[12]}}/2, error) 'cudaFree'
  // CHECK-DAG: note: ({{[12]}}/2, error) 'cudaFreeHost'
  if (pinned)
    cudaFree(p);
  // CHECK: :[[@LINE-1]]:5: error: 'cudaFree'
  else
    cudaFreeAsync(p, s);
  cudaStreamEndCapture(s, &g);
}
