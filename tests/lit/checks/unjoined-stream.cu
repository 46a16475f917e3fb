// capture-unjoined-stream: streams forked into a capture and not joined back
// before it ends (cudaStreamEndCapture: cudaErrorStreamCaptureUnjoined, 904,
// no graph), and work on a stream the capture never forked in (runs once,
// eagerly, missing from the graph); the legal look-alikes beside them.
// RUN: %expect-exit 1 %capture-lint --quiet --checks=capture-unjoined-stream %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

__global__ void k(float *p) {}

void unjoined(cudaStream_t s0, cudaStream_t s1, cudaEvent_t fork, float *p,
              cudaGraph_t *g) {
  cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal);
  cudaEventRecord(fork, s0);
  cudaStreamWaitEvent(s1, fork, 0);
  // CHECK: unjoined-stream.cu:[[@LINE-1]]:3: error: stream 's1' is forked into the capture of stream 's0' here and is not joined back before the capture ends: cudaStreamEndCapture fails with cudaErrorStreamCaptureUnjoined (904) and gives no graph
  k<<<1, 1, 0, s1>>>(p);
  cudaStreamEndCapture(s0, g);
  // CHECK: unjoined-stream.cu:[[@LINE-1]]:3: note: the capture ends here, with 's1' still forked
}

void joined(cudaStream_t s0, cudaStream_t s1, cudaEvent_t fork,
            cudaEvent_t join, float *p, cudaGraph_t *g) {
  cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal);
  cudaEventRecord(fork, s0);
  cudaStreamWaitEvent(s1, fork, 0);
  k<<<1, 1, 0, s1>>>(p);
  cudaMemsetAsync(p, 0, 4, s1);
  cudaEventRecord(join, s1);
  cudaStreamWaitEvent(s0, join, 0);
  k<<<1, 1, 0, s0>>>(p);
  cudaStreamEndCapture(s0, g);
}

// Joined, then given more work: that work is not joined (904 too).
void workAfterJoin(cudaStream_t s0, cudaStream_t s1, cudaEvent_t fork,
                   cudaEvent_t join, float *p, cudaGraph_t *g) {
  cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal);
  cudaEventRecord(fork, s0);
  cudaStreamWaitEvent(s1, fork, 0);
  // CHECK: unjoined-stream.cu:[[@LINE-1]]:3: error: stream 's1' is forked into the capture of stream 's0' here and is not joined back
  k<<<1, 1, 0, s1>>>(p);
  cudaEventRecord(join, s1);
  cudaStreamWaitEvent(s0, join, 0);
  k<<<1, 1, 0, s1>>>(p);
  cudaStreamEndCapture(s0, g);
  // CHECK: unjoined-stream.cu:[[@LINE-1]]:3: note: the capture ends here
}

// Two side streams, one joined through the other.
void chain(cudaStream_t s0, cudaStream_t s1, cudaStream_t s2, cudaEvent_t e0,
           cudaEvent_t e1, cudaEvent_t e2, float *p, cudaGraph_t *g) {
  cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal);
  cudaEventRecord(e0, s0);
  cudaStreamWaitEvent(s1, e0, 0);
  cudaStreamWaitEvent(s2, e0, 0);
  k<<<1, 1, 0, s1>>>(p);
  k<<<1, 1, 0, s2>>>(p);
  cudaEventRecord(e2, s2);
  cudaStreamWaitEvent(s1, e2, 0);
  cudaEventRecord(e1, s1);
  cudaStreamWaitEvent(s0, e1, 0);
  cudaStreamEndCapture(s0, g);
}

void notForked(cudaStream_t s0, cudaStream_t s1, float *p, cudaGraph_t *g) {
  cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal);
  k<<<1, 1, 0, s1>>>(p);
  // CHECK: unjoined-stream.cu:[[@LINE-1]]:3: error: kernel launch 'k' is issued on stream 's1', which is not part of the capture of stream 's0': it runs now, once, at capture time, and is missing from the graph
  cudaMemcpyAsync(p, p, 4, cudaMemcpyDeviceToDevice, s1);
  // CHECK: unjoined-stream.cu:[[@LINE-1]]:3: error: 'cudaMemcpyAsync' is issued on stream 's1', which is not part of the capture of stream 's0'
  k<<<1, 1, 0, s0>>>(p);          // the capturing stream: fine
  cudaStreamEndCapture(s0, g);
  k<<<1, 1, 0, s1>>>(p);          // after the capture: fine
}

// A stream aliased by another name: the same stream, not another one.
void alias(cudaStream_t s0, float *p, cudaGraph_t *g) {
  cudaStream_t same = s0;
  cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal);
  k<<<1, 1, 0, s0>>>(p);
  cudaStreamEndCapture(s0, g);
  (void)same;
}

// A fork in a loop the order does not show: the stream is waited on in the
// function, so its work is not taken for work outside the capture; the
// forks are joined in a loop too.
void forkedInLoop(cudaStream_t s0, cudaStream_t *side, cudaEvent_t e,
                  cudaEvent_t *done, float *p, cudaGraph_t *g) {
  cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal);
  cudaEventRecord(e, s0);
  for (int i = 0; i < 2; ++i)
    cudaStreamWaitEvent(side[i], e, 0);
  k<<<1, 1, 0, side[0]>>>(p);
  for (int i = 0; i < 2; ++i) {
    cudaEventRecord(done[i], side[i]);
    cudaStreamWaitEvent(s0, done[i], 0);
  }
  cudaStreamEndCapture(s0, g);
}

// The same forks left unjoined: cudaStreamEndCapture fails with 904.
void forkedInLoopUnjoined(cudaStream_t s0, cudaStream_t *side, cudaEvent_t e,
                          float *p, cudaGraph_t *g) {
  cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal);
  cudaEventRecord(e, s0);
  for (int i = 0; i < 2; ++i)
    cudaStreamWaitEvent(side[i], e, 0);
  // CHECK: unjoined-stream.cu:[[@LINE-1]]:5: error: stream 'side[i]' is forked into the capture of stream 's0' here and is not joined back
  k<<<1, 1, 0, side[0]>>>(p);
  cudaStreamEndCapture(s0, g);
}

// A stream held by a wrapper that converts to cudaStream_t (mscclpp's
// CudaStreamWithFlags, rocFFT's hipStream_wrapper_t): the conversion names
// the stream the wrapper holds.
struct StreamWrapper {
  cudaStream_t s;
  operator cudaStream_t() const { return s; }
};
void wrapped(StreamWrapper &stream, StreamWrapper &side, cudaEvent_t fork,
             float *p, cudaGraph_t *g) {
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  cudaEventRecord(fork, stream);
  cudaStreamWaitEvent(side, fork, 0);
  // CHECK: unjoined-stream.cu:[[@LINE-1]]:3: error: stream 'side' is forked into the capture of stream 'stream' here and is not joined back
  k<<<1, 1, 0, side>>>(p);
  k<<<1, 1, 0, stream>>>(p);
  cudaStreamEndCapture(stream, g);
  // CHECK: unjoined-stream.cu:[[@LINE-1]]:3: note: the capture ends here
}

// Begun and ended through an opener and a closer of a graph object: the
// capturing stream is the caller's argument for the opener's stream
// parameter, not the object.
struct GraphHolder {
  cudaGraph_t graph;
  void beginCapture(cudaStream_t stream) {
    cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal);
  }
  void endCapture(cudaStream_t stream) {
    (void)cudaStreamEndCapture(stream, &graph);
  }
};

void throughOpener(GraphHolder *holder, cudaStream_t s0, cudaStream_t s1,
                   float *p) {
  holder->beginCapture(s0);
  k<<<1, 1, 0, s0>>>(p); // the capturing stream: legal
  k<<<1, 1, 0, s1>>>(p);
  // CHECK: unjoined-stream.cu:[[@LINE-1]]:3: error: kernel launch 'k' is issued on stream 's1', which is not part of the capture of stream 's0'
  holder->endCapture(s0);
}

void forkThroughOpener(GraphHolder *holder, cudaStream_t s0, cudaStream_t s1,
                       cudaEvent_t fork, float *p) {
  holder->beginCapture(s0);
  cudaEventRecord(fork, s0);
  cudaStreamWaitEvent(s1, fork, 0);
  // CHECK: unjoined-stream.cu:[[@LINE-1]]:3: error: stream 's1' is forked into the capture of stream 's0' here and is not joined back
  k<<<1, 1, 0, s1>>>(p);
  holder->endCapture(s0);
  // CHECK: unjoined-stream.cu:[[@LINE-1]]:11: note: the capture ends here, with 's1' still forked
}

// Capturing streams written as elements and accessors (rccl's `stream[r]`,
// MatX's `streams[s]`, a backend's `instance_->CudaStream()`): the same text
// names the same stream in the region, so a fork from it is followed.
void perRank(cudaStream_t *stream, cudaStream_t side, cudaEvent_t fork,
             float *p, cudaGraph_t *g, int ranks) {
  for (int r = 0; r < ranks; ++r) {
    cudaStreamBeginCapture(stream[r], cudaStreamCaptureModeThreadLocal);
    cudaEventRecord(fork, stream[r]);
    cudaStreamWaitEvent(side, fork, 0);
    // CHECK: unjoined-stream.cu:[[@LINE-1]]:5: error: stream 'side' is forked into the capture of stream 'stream[r]' here and is not joined back
    k<<<1, 1, 0, side>>>(p);
    (void)cudaStreamEndCapture(stream[r], &g[r]);
    // CHECK: unjoined-stream.cu:[[@LINE-1]]:11: note: the capture ends here, with 'side' still forked
  }
}

struct Instance {
  cudaStream_t stream_;
  cudaStream_t CudaStream() { return stream_; } // a getter
};
void accessor(Instance *instance_, cudaStream_t side, cudaEvent_t fork,
              float *p, cudaGraph_t *g) {
  cudaStreamBeginCapture(instance_->CudaStream(), cudaStreamCaptureModeGlobal);
  cudaEventRecord(fork, instance_->CudaStream());
  cudaStreamWaitEvent(side, fork, 0);
  // CHECK: unjoined-stream.cu:[[@LINE-1]]:3: error: stream 'side' is forked into the capture of stream 'instance_->CudaStream()' here and is not joined back
  k<<<1, 1, 0, side>>>(p);
  (void)cudaStreamEndCapture(instance_->CudaStream(), g);
}

// Legal: texts that differ may still name one stream. The join waits with
// `stream[j]` on events recorded as `done[i]`; the work on `other[r]` may be
// on the capturing stream; neither is reported.
void perRankJoined(cudaStream_t *stream, cudaStream_t *side,
                   cudaEvent_t *fork, cudaEvent_t *done, float *p,
                   cudaGraph_t *g, int r) {
  cudaStream_t *other = stream;
  cudaStreamBeginCapture(stream[r], cudaStreamCaptureModeThreadLocal);
  cudaEventRecord(fork[r], stream[r]);
  for (int i = 0; i < 2; ++i) {
    cudaStreamWaitEvent(side[i], fork[r], 0);
    k<<<1, 1, 0, side[i]>>>(p);
    cudaEventRecord(done[i], side[i]);
  }
  for (int j = 0; j < 2; ++j)
    cudaStreamWaitEvent(stream[r], done[j], 0);
  k<<<1, 1, 0, other[r]>>>(p);
  (void)cudaStreamEndCapture(stream[r], &g[r]);
}

// Legal as far as this rule can tell: a method that is no accessor may
// give another stream at each call (a pool's next stream), so its text
// names no stream.
struct Pool {
  cudaStream_t streams[4];
  int n = 0;
  cudaStream_t next() { return streams[n++ % 4]; }
};
void fromPool(Pool &pool, cudaStream_t side, cudaEvent_t fork, float *p,
              cudaGraph_t *g) {
  cudaStream_t s = pool.next();
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaEventRecord(fork, pool.next());
  cudaStreamWaitEvent(side, fork, 0);
  k<<<1, 1, 0, side>>>(p);
  (void)cudaStreamEndCapture(s, g);
}
