// RUN: not %capture-lint --quiet --checks=capture-host-read %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>
#include <cuda.h>
#include <vector>

void syncCopies(cudaStream_t s, float *d, float *h, CUdeviceptr dp) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaMemcpy' is a synchronous copy on the legacy default stream: in a global-mode capture it fails with cudaErrorStreamCaptureImplicit (906)
  cudaMemcpy(d, h, 16, cudaMemcpyHostToDevice); // a sync copy, not a read
  cuMemcpyDtoH(h, dp, 16);
  // CHECK: :[[@LINE-1]]:3: error: 'cuMemcpyDtoH' copies device memory to the host synchronously
  cudaStreamEndCapture(s, &g);
}

void asyncReadBack(cudaStream_t s, int *d, int *hp) {
  cudaGraph_t g;
  int count = 0;
  int arr[4];
  std::vector<int> vec(4);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(&count, d, sizeof(int), cudaMemcpyDeviceToHost, s);
  cudaMemcpyAsync(arr, d, sizeof(arr), cudaMemcpyDeviceToHost, s);
  cudaMemcpyAsync(hp, d, sizeof(int), cudaMemcpyDeviceToHost, s);
  cudaMemcpyAsync(vec.data(), d, 16, cudaMemcpyDeviceToHost, s);
  int n = count;
  // CHECK: :[[@LINE-1]]:11: warning: host read of 'count' sees memory that the captured 'cudaMemcpyAsync' writes only when the graph is replayed
  // CHECK: :[[@LINE-6]]:3: note: the copy into 'count' is captured here; it runs only when the graph is replayed
  int first = arr[0];
  // CHECK: :[[@LINE-1]]:15: warning: host read of 'arr'
  int viaPtr = *hp;
  // CHECK: :[[@LINE-1]]:16: warning: host read of 'hp'
  int fromVec = vec[1];
  // CHECK: :[[@LINE-1]]:17: warning: host read of 'vec'
  cudaMemcpyAsync(d, hp, sizeof(int), cudaMemcpyHostToDevice, s); // pointer passed on, not read
  cudaStreamEndCapture(s, &g);
  int after = count; // after the region: the caller syncs first
  (void)n, (void)first, (void)viaPtr, (void)fromVec, (void)after;
}

// A host-to-device async copy's source may be read freely.
void h2dIsFine(cudaStream_t s, int *d) {
  cudaGraph_t g;
  int v = 3;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(d, &v, sizeof(int), cudaMemcpyHostToDevice, s);
  int w = v + 1;
  cudaStreamEndCapture(s, &g);
  (void)w;
}

// Members of this: the copy destination and the status kept by an engine.
struct Engine {
  int *host_token;
  int last;
  cudaStreamCaptureStatus status;
  void capture(cudaStream_t s, int *d) {
    cudaGraph_t g;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    cudaMemcpyAsync(host_token, d, sizeof(int), cudaMemcpyDeviceToHost, s);
    cudaMemcpyAsync(&last, d, sizeof(int), cudaMemcpyDeviceToHost, s);
    int t = host_token[0];
    // CHECK: :[[@LINE-1]]:13: warning: host read of 'host_token'
    int u = last;
    // CHECK: :[[@LINE-1]]:13: warning: host read of 'last'
    int *keep = host_token; // the pointer, not the data
    cudaStreamIsCapturing(s, &status);
    if (status == cudaStreamCaptureStatusNone)
      cudaMemcpy(&t, d, sizeof(int), cudaMemcpyDeviceToHost); // guarded
    cudaStreamEndCapture(s, &g);
    (void)t, (void)u, (void)keep;
  }
};
