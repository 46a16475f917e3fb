// Issue 11, item 10: a virtual call in a region runs any override the
// translation unit shows; each one's hazards are reported at the call.
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

struct Layer {
  virtual ~Layer() = default;
  virtual void forward(cudaStream_t s) = 0;
};
struct Norm : Layer {
  void forward(cudaStream_t s) override { cudaStreamSynchronize(s); }
};
struct Linear : Layer {
  void forward(cudaStream_t s) override {}
};

void capture(Layer &layer, cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  layer.forward(s);
  // CHECK: :[[@LINE-1]]:9: error: call to 'Norm::forward' reaches 'cudaStreamSynchronize'
  layer.Layer::forward(s); // qualified: no dispatch, pure virtual: quiet
  cudaStreamEndCapture(s, g);
}

// Issue 23, item 10: where the TU shows the object's dynamic class, the call
// runs that class's final overrider only; every override only when the
// class is unknown (a parameter, above).
#include "Inputs/mock_memory.h"
struct Tail : Linear {};
void known_classes(cudaStream_t s, cudaGraph_t *g) {
  Linear linear;
  Norm norm;
  Layer *first = &linear;
  std::unique_ptr<Layer> owned = std::make_unique<Tail>();
  Layer *debug = new Norm();
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  first->forward(s); // a Linear: quiet
  owned->forward(s); // a Tail, so Linear::forward: quiet
  linear.forward(s); // quiet
  norm.forward(s);
  // CHECK: :[[@LINE-1]]:8: error: call to 'Norm::forward' reaches 'cudaStreamSynchronize'
  debug->forward(s);
  // CHECK: :[[@LINE-1]]:10: error: call to 'Norm::forward' reaches 'cudaStreamSynchronize'
  cudaStreamEndCapture(s, g);
}
