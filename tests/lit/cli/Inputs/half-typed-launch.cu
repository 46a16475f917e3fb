#include <cuda_runtime.h>
__global__ void k(float*);
void f(cudaStream_t s,float*d){k<<<dim3(1,2),32,0