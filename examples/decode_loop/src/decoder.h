// One decoder step, and the graph that replays it.
#pragma once
#include "kv_cache.h"
#include <cuda_runtime.h>

struct Decoder {
  int dim = 0;
  int vocab = 0;
  float *hidden = nullptr; // [dim]
  float *logits = nullptr; // [vocab]
  float *weights = nullptr; // [vocab x dim]
  int *next_token = nullptr; // device
  int *host_token = nullptr; // pinned host
  KVCache cache;
  cudaStream_t stream = nullptr;
  cudaGraphExec_t exec = nullptr;

  void init(int dim, int vocab, int max_tokens);
  void step();            // one token, eagerly
  void capture_step();    // record step() into a graph
  int replay_step();      // launch the graph, return the sampled token
};
