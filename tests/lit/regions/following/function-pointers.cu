// Issue 11, item 11: calls through function pointers: a local given a
// function, a member assigned one, a table of them.
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

typedef void (*Op)(cudaStream_t);
void quiet_op(cudaStream_t s) {}
void syncing_op(cudaStream_t s) { cudaStreamSynchronize(s); }
void allocating_op(cudaStream_t s) {
  void *p;
  cudaMalloc(&p, 16);
}
static const Op table[] = {quiet_op, allocating_op};

struct Engine {
  Op finish_;
  Engine() : finish_(quiet_op) {}
  void use_sync() { finish_ = &syncing_op; }
  void run(cudaStream_t s, int i, cudaGraph_t *g) {
    Op local = quiet_op;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    local(s);
    finish_(s);
    // CHECK: :[[@LINE-1]]:5: error: call to 'syncing_op' reaches 'cudaStreamSynchronize'
    table[i](s);
    // CHECK: :[[@LINE-1]]:5: error: call to 'allocating_op' reaches 'cudaMalloc'
    table[0](s); // a constant index runs that entry only: quiet
    cudaStreamEndCapture(s, g);
  }
};
