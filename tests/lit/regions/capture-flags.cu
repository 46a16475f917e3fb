// Issue 23, item 3: a begin and an end under different predicates in a loop.
// The opener sets a member (`capturing_ = true`), a capture flag: while it
// holds the capture is active, so `if (r.capturing()) r.stop(s, g);` ends
// the region on both edges, and the region does not leak before the begin
// (around the loop) or past the end.
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

class Recorder {
public:
  bool want() const { return step_ % 16 == 0; }
  void start(cudaStream_t s) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    capturing_ = true;
  }
  void stop(cudaStream_t s, cudaGraph_t *g) {
    cudaStreamEndCapture(s, g);
    capturing_ = false;
  }
  bool capturing() const { return capturing_; }
  int step_ = 0;

private:
  bool capturing_ = false;
};

void launch(cudaStream_t s);

void decode(Recorder &r, cudaStream_t s, cudaGraph_t *g, bool use, int n) {
  for (int i = 0; i < n; ++i) {
    cudaDeviceSynchronize(); // before the begin, every iteration: quiet
    if (use && r.want())
      r.start(s);
    launch(s);
    cudaStreamSynchronize(s);
    // CHECK: :[[@LINE-1]]:5: error: 'cudaStreamSynchronize'
    // CHECK: :[[@LINE-4]]:9: note: capture of stream 's' begins with this call to 'Recorder::start'
    // CHECK: :14:5: note: the capture begins here
    if (r.capturing())
      r.stop(s, g);
    cudaDeviceSynchronize(); // past the end: quiet
  }
  cudaDeviceSynchronize(); // after the loop: quiet
}

// The flag as a guard: the right way round keeps the allocation out of the
// capture, the wrong way round allocates exactly while capturing (issue
// 23, item 4).
void grow_when_idle(Recorder &r, void **p) {
  if (r.capturing())
    return;
  cudaMalloc(p, 16);
}
void grow_when_capturing(Recorder &r, void **p) {
  if (!r.capturing())
    return;
  cudaMalloc(p, 16);
}

void guarded(Recorder &r, cudaStream_t s, cudaGraph_t *g, void **p) {
  r.start(s);
  grow_when_idle(r, p);
  grow_when_capturing(r, p);
  // CHECK: :[[@LINE-1]]:3: error: call to 'grow_when_capturing' reaches 'cudaMalloc'
  // CHECK: :[[@LINE-8]]:3: note: 'cudaMalloc' is called here
  // CHECK: :[[@LINE-5]]:5: note: capture of stream 's' begins with this call to 'Recorder::start'
  // CHECK: :14:5: note: the capture begins here
  r.stop(s, g);
}
