#include <hip_runtime.h>

hipError_t capture(hipStream_t s, bool bad, hipGraph_t *out) {
  hipStreamBeginCapture(s, hipStreamCaptureModeGlobal);
  if (bad)
    return hipErrorInvalidValue;
  return hipStreamEndCapture(s, out);
}
