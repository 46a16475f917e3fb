#include <cuda_runtime.h>
struct Group;
void dispatch(Group *group, float *out, cudaStream_t s);
void capture(cudaStream_t s, Group *group, float *out) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  dispatch(group, out, s);
  cudaStreamEndCapture(s, &g);
}
