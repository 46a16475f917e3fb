// The HIP shape of capture-unchecked-end (tests/lit/real/unchecked-end.test).
#include <hip/hip_runtime.h>

__global__ void kernel(float *p) { p[threadIdx.x] = 0.f; }

void capture(hipStream_t s, float *p, hipGraphExec_t *exec) {
  hipGraph_t g;
  if (hipStreamBeginCapture(s, hipStreamCaptureModeGlobal) != hipSuccess)
    return;
  kernel<<<1, 32, 0, s>>>(p);
  hipStreamEndCapture(s, &g);
  // CHECK: :[[@LINE-1]]:3: warning: the result of 'hipStreamEndCapture' is discarded
  hipError_t err = hipGraphInstantiate(exec, g, nullptr, nullptr, 0);
  if (err != hipSuccess) // checked
    return;
}
