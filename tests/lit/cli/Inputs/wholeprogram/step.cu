#include "helpers.h"

__global__ void k(float *p);

int launch_step(cudaStream_t s, float *p) {
  k<<<1, 1, 0, s>>>(p);
  grow_pool(&p, 64);
  return 0;
}
