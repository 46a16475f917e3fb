// KV cache management.
#include "cuda_check.h"
#include "kv_cache.h"

void KVCache::allocate(int cap, int d) {
  capacity = cap;
  dim = d;
  CUDA_CHECK(cudaMalloc(&keys, sizeof(float) * cap * d));
  CUDA_CHECK(cudaMalloc(&values, sizeof(float) * cap * d));
}

void KVCache::reserve(int tokens, cudaStream_t stream) {
  if (tokens <= capacity)
    return;
  // Bug when called under capture: cudaMalloc/cudaFree are not capturable.
  float *k = nullptr, *v = nullptr;
  CUDA_CHECK(cudaMalloc(&k, sizeof(float) * tokens * 2 * dim));
  CUDA_CHECK(cudaMalloc(&v, sizeof(float) * tokens * 2 * dim));
  CUDA_CHECK(cudaMemcpyAsync(k, keys, sizeof(float) * length * dim,
                             cudaMemcpyDeviceToDevice, stream));
  CUDA_CHECK(cudaMemcpyAsync(v, values, sizeof(float) * length * dim,
                             cudaMemcpyDeviceToDevice, stream));
  CUDA_CHECK(cudaFree(keys));
  CUDA_CHECK(cudaFree(values));
  keys = k;
  values = v;
  capacity = tokens * 2;
}

void KVCache::append(const float *k, const float *v, cudaStream_t stream) {
  CUDA_CHECK(cudaMemcpyAsync(keys + length * dim, k, sizeof(float) * dim,
                             cudaMemcpyDeviceToDevice, stream));
  CUDA_CHECK(cudaMemcpyAsync(values + length * dim, v, sizeof(float) * dim,
                             cudaMemcpyDeviceToDevice, stream));
  ++length;
}
