// Issue 11, cause K (seen in NVIDIA/nccl's nccl_ep): a device-to-host copy
// under a "not capturing" guard reads nothing back under capture, so a
// branch on its destination (through a ternary on the same guard) is no
// shape branch there. A copy made inside the region still is one.
// RUN: not %capture-lint --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

int dispatch(int *out, const unsigned *d_count, unsigned max_rows,
             cudaStream_t stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  cudaStreamIsCapturing(stream, &status);
  const bool is_capturing = (status == cudaStreamCaptureStatusActive);
  unsigned actual = 0;
  if (!is_capturing) {
    cudaMemcpyAsync(&actual, d_count, sizeof(actual), cudaMemcpyDeviceToHost,
                    stream);
    cudaStreamSynchronize(stream);
  }
  const unsigned rows = is_capturing ? max_rows : actual;
  if (rows > 4096)
    return 1;
  cudaMemsetAsync(out, 0, rows * sizeof(int), stream);
  return 0;
}

int dispatch_unguarded(int *out, const unsigned *d_count,
                       cudaStream_t stream) {
  unsigned actual = 0;
  cudaMemcpyAsync(&actual, d_count, sizeof(actual), cudaMemcpyDeviceToHost,
                  stream);
  if (actual > 4096)
    return 1;
  cudaMemsetAsync(out, 0, actual * sizeof(int), stream);
  return 0;
}

void step(int *out, const unsigned *d_count, cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  dispatch(out, d_count, 1024, s);
  dispatch_unguarded(out, d_count, s);
  // CHECK: :[[@LINE-1]]:3: warning: call to 'dispatch_unguarded' reaches 3 capture hazards: 3 warnings
  // CHECK-DAG: note: ({{[1-3]}}/3, warning) host read of 'actual' (guarded-readback.cu:32)
  // CHECK-DAG: note: ({{[1-3]}}/3, warning) host read of 'actual' (guarded-readback.cu:34)
  // CHECK-DAG: note: ({{[1-3]}}/3, warning) 'if' condition (guarded-readback.cu:32)
  cudaStreamEndCapture(s, g);
}
