#include "helpers.h"

void flush_logs(cudaStream_t s) { cudaStreamSynchronize(s); }

void grow_pool(float **p, int n) { cudaMalloc(p, n * sizeof(float)); }
