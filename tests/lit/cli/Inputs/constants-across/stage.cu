#include "copy.h"

// Passes its own parameter on: the caller's constant decides copy's branch.
void stage(void *a, const void *b, size_t n, Kind k, cudaStream_t s) {
  copy(a, b, n, k, s);
}
