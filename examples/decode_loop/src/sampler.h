// Greedy sampling on the device.
#pragma once
#include <cuda_runtime.h>

void sample_argmax(const float *logits, int vocab, int *out,
                   cudaStream_t stream);
