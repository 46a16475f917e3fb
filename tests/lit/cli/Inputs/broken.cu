#include <cuda_runtime.h>
void run(cudaStream_t s) {
  this is not C++;
}
