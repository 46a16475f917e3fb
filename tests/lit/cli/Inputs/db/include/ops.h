#pragma once
#include <cuda_runtime.h>
// Found only through the -I path in the nvcc options file.
inline void ops_sync() { cudaDeviceSynchronize(); }
