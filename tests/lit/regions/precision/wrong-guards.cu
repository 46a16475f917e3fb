// Issue 11, item 16: guards that are wrong are not guards: a status query
// of another stream than the capturing one, and a status read before the
// begin and reused after it.
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

void other_stream(cudaStream_t s, cudaStream_t side, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaStreamCaptureStatus st;
  cudaStreamIsCapturing(side, &st);
  if (st == cudaStreamCaptureStatusNone)
    cudaStreamSynchronize(side);
  // CHECK: :[[@LINE-1]]:5: error: 'cudaStreamSynchronize'
  cudaStreamIsCapturing(s, &st);
  if (st == cudaStreamCaptureStatusNone)
    cudaStreamSynchronize(s); // the capturing stream: a guard, quiet
  cudaStreamEndCapture(s, g);
}

void stale_status(cudaStream_t s, cudaGraph_t *g) {
  cudaStreamCaptureStatus st;
  cudaStreamIsCapturing(s, &st);
  bool capturing = st != cudaStreamCaptureStatusNone;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (st == cudaStreamCaptureStatusNone)
    cudaStreamSynchronize(s);
  // CHECK: :[[@LINE-1]]:5: error: 'cudaStreamSynchronize'
  if (!capturing)
    cudaDeviceSynchronize();
  // CHECK: :[[@LINE-1]]:5: error: 'cudaDeviceSynchronize'
  cudaStreamIsCapturing(s, &st);
  if (st == cudaStreamCaptureStatusNone)
    cudaStreamSynchronize(s); // asked again after the begin: quiet
  cudaStreamEndCapture(s, g);
}
