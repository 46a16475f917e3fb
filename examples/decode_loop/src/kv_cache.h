// The key/value cache of the decoder: one buffer per layer.
#pragma once
#include <cuda_runtime.h>

struct KVCache {
  float *keys = nullptr;
  float *values = nullptr;
  int capacity = 0; // tokens
  int length = 0;   // tokens written so far
  int dim = 0;

  void allocate(int capacity, int dim);
  // Grows the cache when it is full. Called every step.
  void reserve(int tokens, cudaStream_t stream);
  void append(const float *k, const float *v, cudaStream_t stream);
};
