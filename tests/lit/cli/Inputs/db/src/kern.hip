#include <hip/hip_runtime.h>
void capture(hipStream_t s) {
  hipGraph_t g;
  void *p;
  hipStreamBeginCapture(s, hipStreamCaptureModeGlobal);
  hipMalloc(&p, 16);
  hipStreamEndCapture(s, &g);
}
