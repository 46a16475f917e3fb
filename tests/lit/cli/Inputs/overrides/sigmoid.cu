#include "layer.h"

namespace {
void *scratch;
}

// Defined inside its class, in this file only.
struct Sigmoid : Layer {
  void forward(cudaStream_t s) override { cudaMalloc(&scratch, 64); }
};

Layer *make_sigmoid() { return new Sigmoid; }
