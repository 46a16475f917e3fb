// Issue 11, item 5: host reads are field-sensitive: a captured copy into
// p->count does not make a read of p->capacity a hazard.
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

struct Stats {
  int count;
  int capacity;
};
__global__ void grow(int *d, int n) {}

void step(cudaStream_t s, Stats *p, const int *d_count, int *d, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(&p->count, d_count, sizeof(int), cudaMemcpyDeviceToHost, s);
  grow<<<1, 1, 0, s>>>(d, p->capacity); // another field: quiet
  int n = p->count;
  // CHECK: :[[@LINE-1]]:11: warning: {{.*}}'count'
  cudaStreamEndCapture(s, g);
}
