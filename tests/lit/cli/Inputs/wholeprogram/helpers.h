#pragma once
#include <cuda_runtime.h>
void flush_logs(cudaStream_t s);
void grow_pool(float **p, int n);
int launch_step(cudaStream_t s, float *p);
