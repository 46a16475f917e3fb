// Issue 11, item 17: stream-ordered allocation on a stream that takes no part
// in the capture, and a capture-status query of the legacy stream during a
// global-mode capture.
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

void alloc(cudaStream_t s, cudaStream_t side, cudaGraph_t *g, void **p) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMallocAsync(p, 64, s); // the capturing stream: a memory node, quiet
  cudaMallocAsync(p, 64, side);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaMallocAsync' uses stream 'side', which is not part of the capture of stream 's'
  cudaStreamCaptureStatus st;
  cudaStreamIsCapturing(0, &st);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaStreamIsCapturing' asks about the legacy default stream ('0') while stream 's' is capturing
  cudaStreamEndCapture(s, g);
}

void forked(cudaStream_t s, cudaStream_t side, cudaEvent_t fork,
            cudaEvent_t join, cudaGraph_t *g, void **p) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaEventRecord(fork, s);
  cudaStreamWaitEvent(side, fork); // side joins the capture
  cudaMallocAsync(p, 64, side);    // quiet
  cudaEventRecord(join, side);
  cudaStreamWaitEvent(s, join);
  cudaStreamEndCapture(s, g);
}

void relaxed_query(cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  cudaStreamCaptureStatus st;
  cudaStreamIsCapturing(0, &st); // not a global capture: quiet
  cudaStreamEndCapture(s, g);
}

// Issue 23, item 8: synchronizing a stream that is not the capturing one
// fails in global and thread-local mode, and in relaxed mode runs eagerly
// (the replays do not wait for it): a warning, not a failure.
void sync_other(cudaStream_t s, cudaStream_t other, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  cudaStreamSynchronize(other);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' waits for a stream to drain: in a relaxed-mode capture it runs once, at capture time, and is not recorded in the graph
  cudaStreamSynchronize(s);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaStreamSynchronize' waits for a stream to drain: in a relaxed-mode capture it fails
  cudaStreamEndCapture(s, g);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaStreamSynchronize(other);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaStreamSynchronize' waits for a stream to drain: in a global-mode capture it fails
  cudaStreamEndCapture(s, g);
}
