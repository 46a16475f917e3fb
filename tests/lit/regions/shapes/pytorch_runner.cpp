// A PyTorch-style CUDA graph runner: warm-up runs eagerly, capture() wraps
// the model's forward in CUDAGraph::capture_begin/capture_end through the
// runner's begin/end members, and replay() launches the graph. Planted: a
// shape branch and an .item() two calls below the forward. The warm-up's
// host reads and the decode step's branches after the capture are legal.
// RUN: not %capture-lint --quiet %s -- %torch-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAGraph.h>

struct Attention {
  at::Tensor run(const at::Tensor &x) {
    if (x.size(0) > 8)
      return x.slice(0, 0, 8);
    return x;
  }
};

struct Sampler {
  at::Tensor pick(const at::Tensor &logits) {
    float top = logits.item<float>();
    return logits.add(logits);
  }
};

struct Model {
  Attention attn;
  Sampler sampler;
  at::Tensor forward(const at::Tensor &x) {
    at::Tensor h = attn.run(x);
    return sampler.pick(h);
  }
};

class GraphRunner {
public:
  void begin() { graph_.capture_begin(); }
  void end() { graph_.capture_end(); }
  void replay() { graph_.replay(); }

  void capture(Model &m, const at::Tensor &static_in) {
    for (int i = 0; i < 3; ++i) // warm-up, eager
      m.forward(static_in).item<float>();
    begin();
    static_out_ = m.forward(static_in);
    // CHECK: :[[@LINE-1]]:21: error: call to 'Model::forward' reaches 2 capture hazards: 1 error, 1 remark [capture-host-read,capture-shape-branch]
    // CHECK: :[[@LINE-3]]:5: note: capture into graph 'graph_' begins with this call to 'GraphRunner::begin', mode global
    // CHECK: note: (1/2, error) 'at::Tensor::item' ({{[^)]*}}), which copies a device value to the host
    // CHECK: note: (2/2, remark) 'if' condition ({{[^)]*}}), which depends on 'at::TensorBase::size' (a tensor shape)
    end();
  }

  at::Tensor decode(Model &m, const at::Tensor &in) {
    if (in.size(0) != static_size_)
      return m.forward(in); // eager fallback: fine
    replay();
    return static_out_;
  }

private:
  at::cuda::CUDAGraph graph_;
  at::Tensor static_out_;
  int64_t static_size_ = 8;
};
