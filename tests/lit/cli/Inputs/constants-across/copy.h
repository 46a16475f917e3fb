#pragma once
#include <cuda_runtime.h>
enum class Kind { Sync, Async, Peer };
void copy(void *a, const void *b, size_t n, Kind k, cudaStream_t s);
void stage(void *a, const void *b, size_t n, Kind k, cudaStream_t s);
void sort(void *p, size_t n, cudaStream_t s, bool debug_synchronous);
