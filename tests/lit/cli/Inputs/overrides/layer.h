#pragma once
#include <cuda_runtime.h>

struct Layer {
  virtual ~Layer() {}
  virtual void forward(cudaStream_t s) = 0;
};

// Declared here, defined in tanh.cu: every file sees this override.
struct Tanh : Layer {
  void forward(cudaStream_t s) override;
};

Layer *make_layer(int kind);
