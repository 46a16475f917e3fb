// A training framework's network: each layer group runs through a graph
// runner when graphs are on, and debug builds turn graphs off in the
// constructor (the switch is a member stored `false` there) while layers
// synchronize under `#ifndef NDEBUG`. The layer groups' captures cannot run
// in a debug build; the whole-iteration capture, which runs the groups'
// eager branch, does and is reported.
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
// RUN: %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock -DNDEBUG
#include <cuda_runtime.h>
#include <functional>

struct GraphRunner {
  bool ready = false;
  cudaGraph_t graph;
  void record(std::function<void(cudaStream_t)> work, cudaStream_t s) {
    if (ready)
      return;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
    work(s);
    cudaStreamEndCapture(s, &graph);
    ready = true;
  }
};

void debug_barrier() {
#ifndef NDEBUG
  cudaDeviceSynchronize();
#endif
}

struct Layer {
  void forward() { debug_barrier(); }
  void backward() { debug_barrier(); }
};

class Network {
public:
  explicit Network(bool use_graphs);
  void train(cudaStream_t s);
  void eval(cudaStream_t s);

private:
  template <typename L>
  void run_layers(L *layers, int n, GraphRunner &g, bool use_graph,
                  bool forward, cudaStream_t s);
  Layer layers_[4];
  GraphRunner fwd_graph_, bwd_graph_, eval_graph_;
  bool use_graphs_;
};

Network::Network(bool use_graphs)
#ifdef NDEBUG
    : use_graphs_(use_graphs)
#else
    : use_graphs_(false)
#endif
{
}

template <typename L>
void Network::run_layers(L *layers, int n, GraphRunner &g, bool use_graph,
                         bool forward, cudaStream_t s) {
  auto work = [layers, n, forward](cudaStream_t) {
    for (int i = 0; i < n; ++i) {
      if (forward)
        layers[i].forward();
      else
        layers[i].backward();
    }
  };
  if (!use_graph) {
    work(s);
    return;
  }
  g.record(work, s); // never reached: every call passes use_graphs_ (false)
}

void Network::train(cudaStream_t s) {
  run_layers(layers_, 4, fwd_graph_, use_graphs_, true, s);
  run_layers(layers_, 4, bwd_graph_, use_graphs_, false, s);
}

void Network::eval(cudaStream_t s) {
  run_layers(layers_, 4, eval_graph_, use_graphs_, true, s);
}

// The whole iteration in one graph, built with the groups' graphs off.
struct Trainer {
  Network *net;
  GraphRunner iteration;
  void step(cudaStream_t s) {
    iteration.record([this](cudaStream_t st) { net->train(st); }, s);
    // CHECK: :[[@LINE-1]]:53: error: call to 'Network::train' reaches 'cudaDeviceSynchronize'
  }
};
