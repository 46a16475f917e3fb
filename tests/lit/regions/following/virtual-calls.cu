// Issue 11, item 10: a virtual call in a region runs any override the
// translation unit shows; each one's hazards are reported at the call.
// RUN: not %capture-lint --quiet %s -- %cuda-mock \
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
