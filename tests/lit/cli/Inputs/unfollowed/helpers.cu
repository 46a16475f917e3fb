#include <cuda_runtime.h>
void vendor_exec(void *plan, float *x);
void prepare(cudaStream_t s, float *x) { cudaMemsetAsync(x, 0, 64, s); }
void launch_all(cudaStream_t s, float *x) { vendor_exec(nullptr, x); }
