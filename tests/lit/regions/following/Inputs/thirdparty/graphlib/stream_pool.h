// A third-party header-only library, included as a system header (-isystem,
// CMake's SYSTEM include directories): its code runs in the user's regions.
#pragma once
#include <cuda_runtime.h>
namespace graphlib {
inline void drain(cudaStream_t s) { cudaStreamSynchronize(s); }
inline void scratch(void **p) { cudaMalloc(p, 256); }
inline void enqueue(void *d, cudaStream_t s) { cudaMemsetAsync(d, 0, 4, s); }
} // namespace graphlib
