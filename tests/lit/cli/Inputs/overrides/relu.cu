#include "layer.h"

// Only this file knows Relu: the net reaches it through Layer::forward.
struct Relu : Layer {
  void forward(cudaStream_t s) override;
};

void Relu::forward(cudaStream_t s) { cudaStreamSynchronize(s); }

Layer *make_relu() { return new Relu; }
