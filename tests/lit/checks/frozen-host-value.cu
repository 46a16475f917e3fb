// RUN: not %capture-lint --quiet --checks=capture-frozen-host-value %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

__global__ void step(float *p, long n) {}
__global__ void wait(int *flags, unsigned expected) {}

struct Params {
  float *out;
  unsigned expected;
};
struct Group {
  unsigned expected;
  int *flags;
};
// Defined in another file: it launches a kernel with the parameters.
void launchDispatch(const Params &p, cudaStream_t s);

struct Optimizer {
  long step_ = 0;
  size_t offset_ = 0;
  float *workspace_;

  void capture(cudaStream_t s, float *d) {
    cudaGraph_t g;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    ++step_;
    step<<<1, 32, 0, s>>>(d, step_);
    // CHECK: :[[@LINE-1]]:30: warning: 'step_' is updated on the host inside the capture and passed to kernel launch 'step': the graph records the value it has at capture time; replays do not run the host update, so every replay passes that same value; keep the counter in device memory and update it with a kernel inside the graph, or set the node's parameters before each launch (cudaGraphExecKernelNodeSetParams)
    // CHECK: :[[@LINE-3]]:5: note: 'step_' is updated here, on the host; replays do not run this update
    // CHECK: :[[@LINE-5]]:5: note: capture of stream 's' begins here, mode global

    // A workspace offset is an address: replays are meant to reuse it.
    offset_ += 256;
    step<<<1, 32, 0, s>>>(workspace_ + offset_, 4);
    cudaStreamEndCapture(s, &g);
  }

  // Updated before the capture: the graph takes the value it has then, as
  // the author meant.
  void updatedOutside(cudaStream_t s, float *d) {
    cudaGraph_t g;
    step_ += 1;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    step<<<1, 32, 0, s>>>(d, step_);
    cudaStreamEndCapture(s, &g);
  }
};

// Through a pointer, a local struct and a function that takes the stream.
void dispatch(Group *group, float *out, cudaStream_t s) {
  Params params;
  params.out = out;
  group->expected += 1;
  params.expected = group->expected;
  launchDispatch(params, s);
}

static unsigned calls;

void captureAll(cudaStream_t s, Group *group, float *out, int *flags) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  dispatch(group, out, s);
  // CHECK: :[[@LINE-1]]:3: warning: call to 'dispatch' reaches 'group->expected' (frozen-host-value.cu:[[@LINE-9]]), which is updated on the host inside the capture and passed (through 'params') to 'launchDispatch'
  // CHECK: :[[@LINE-10]]:18: note: 'group->expected' is passed to 'launchDispatch' here
  // CHECK: :[[@LINE-13]]:19: note: 'group->expected' is updated here, on the host; replays do not run this update
  // CHECK: :[[@LINE-13]]:19: note: 'params' takes its value from 'group->expected' here
  // CHECK: :[[@LINE-6]]:3: note: capture of stream 's' begins here, mode relaxed
  calls++;
  wait<<<1, 1, 0, s>>>(flags, calls * 2);
  // CHECK: :[[@LINE-1]]:31: warning: 'calls' is updated on the host inside the capture and passed to kernel launch 'wait'
  for (int i = 0; i < 4; ++i)
    step<<<1, 32, 0, s>>>(out, i); // a loop counter: the same every replay
  unsigned local = 0;
  local += 3;
  wait<<<1, 1, 0, s>>>(flags, local); // a local: recomputed identically
  cudaStreamEndCapture(s, &g);
}
