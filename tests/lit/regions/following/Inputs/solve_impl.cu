// The library side of variable-template.cu: defined in another file. Both
// entry points reach the same synchronization.
#include <cuda_runtime.h>
static int solve_impl(cudaStream_t s, int n) {
  cudaStreamSynchronize(s);
  return n;
}
extern "C" int ssolve(cudaStream_t s, int n) { return solve_impl(s, n); }
extern "C" int dsolve(cudaStream_t s, int n) { return solve_impl(s, n); }
