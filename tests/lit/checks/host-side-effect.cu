// capture-host-side-effect in C++: persistent host state updated in a region
// runs once, at capture; and the legal look-alikes beside it.
// RUN: %expect-exit 1 %capture-lint --quiet --checks=capture-host-side-effect,capture-frozen-host-value %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

__global__ void k(float *p, int step);

int g_captures = 0;

struct Stats {
  long bytes = 0;
};

struct Runner {
  cudaStream_t stream_;
  cudaGraph_t graph_;
  float *buf_;
  int launches_ = 0;
  int step_ = 0;
  bool captured_ = false;
  Stats *stats_;

  void capture(int n) {
    int local = 0;
    cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal);
    ++launches_;
    // CHECK: :[[@LINE-1]]:5: warning: 'launches_' is updated here, host state that outlives the region: a graph records GPU work only
    stats_->bytes += n;
    // CHECK: :[[@LINE-1]]:19: warning: 'stats_->bytes' is updated here
    g_captures = g_captures + 1;
    // CHECK: :[[@LINE-1]]:16: warning: 'g_captures' is updated here
    ++local;       // a local: legal
    captured_ = true; // a plain store: legal
    ++step_;
    k<<<1, 1, 0, stream_>>>(buf_, step_);
    // CHECK: :[[@LINE-1]]:35: warning: 'step_' is updated on the host
    cudaStreamEndCapture(stream_, &graph_);
    ++launches_; // after the region: legal
  }
};
