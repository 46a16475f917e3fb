#include <cuda_runtime.h>
void prepare(cudaStream_t s, float *x); // defined in helpers.cu
void launch_all(cudaStream_t s, float *x); // defined in helpers.cu
void vendor_exec(void *plan, float *x); // a prebuilt library's: no body anywhere

void step(cudaStream_t s, float *x, void *plan) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  prepare(s, x);
  launch_all(s, x);
  vendor_exec(plan, x);
  cudaStreamEndCapture(s, &g);
}
