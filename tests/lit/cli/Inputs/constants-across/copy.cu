#include "copy.h"

void copy(void *a, const void *b, size_t n, Kind k, cudaStream_t s) {
  switch (k) {
  case Kind::Sync:
    cudaMemcpy(a, b, n, cudaMemcpyDeviceToDevice);
    break;
  case Kind::Async:
    cudaMemcpyAsync(a, b, n, cudaMemcpyDeviceToDevice, s);
    break;
  default:
    cudaDeviceSynchronize();
  }
}

void sort(void *p, size_t n, cudaStream_t s, bool debug_synchronous) {
  cudaMemsetAsync(p, 0, n, s);
  if (debug_synchronous)
    cudaStreamSynchronize(s);
}
