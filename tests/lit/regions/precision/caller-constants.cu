// A capture that only runs when a parameter is true, in a function only
// this file can call: when every call passes the same constant (a literal,
// a never-written local, a member every constructor sets to that constant
// and nothing else writes), the capture runs only if that constant says so.
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

static void capture_step(cudaStream_t s, cudaGraph_t *g, bool use_graph) {
  if (!use_graph)
    return;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaDeviceSynchronize(); // quiet: every call passes false
  cudaStreamEndCapture(s, g);
}

static void capture_mixed(cudaStream_t s, cudaGraph_t *g, bool use_graph) {
  if (!use_graph)
    return;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaDeviceSynchronize();
  // CHECK: :[[@LINE-1]]:3: error: 'cudaDeviceSynchronize' waits
  cudaStreamEndCapture(s, g);
}

// Called through a pointer too: its callers are not all known.
static void capture_escaped(cudaStream_t s, cudaGraph_t *g, bool use_graph) {
  if (!use_graph)
    return;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaDeviceSynchronize();
  // CHECK: :[[@LINE-1]]:3: error: 'cudaDeviceSynchronize' waits
  cudaStreamEndCapture(s, g);
}
void (*capture_hook)(cudaStream_t, cudaGraph_t *, bool) = capture_escaped;

// Visible to other files: their calls are not seen.
void capture_exported(cudaStream_t s, cudaGraph_t *g, bool use_graph) {
  if (!use_graph)
    return;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaDeviceSynchronize();
  // CHECK: :[[@LINE-1]]:3: error: 'cudaDeviceSynchronize' waits
  cudaStreamEndCapture(s, g);
}

class Solver {
public:
  Solver() : graphs_(false), steps_(0) {}
  explicit Solver(int steps) : graphs_(false), steps_(steps) {}
  void run(cudaStream_t s) {
    iterate(s, graphs_);
    iterate(s, graphs_);
  }
  void enable_fast(bool on) { fast_ = on; }
  void run_fast(cudaStream_t s) { iterate_fast(s, fast_); }
  void run_public(cudaStream_t s) { iterate_public(s, open_); }
  bool open_ = false; // public: any file may set it

private:
  void iterate(cudaStream_t s, bool use_graph);
  void iterate_fast(cudaStream_t s, bool use_graph);
  void iterate_public(cudaStream_t s, bool use_graph);
  bool graphs_;
  bool fast_ = false; // written by enable_fast
  int steps_;
  cudaGraph_t graph_;
};

void Solver::iterate(cudaStream_t s, bool use_graph) {
  if (use_graph) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    cudaStreamSynchronize(s); // quiet: graphs_ is false in every Solver
    cudaStreamEndCapture(s, &graph_);
  }
}

void Solver::iterate_fast(cudaStream_t s, bool use_graph) {
  if (use_graph) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    cudaStreamSynchronize(s);
    // CHECK: :[[@LINE-1]]:5: error: 'cudaStreamSynchronize' waits
    cudaStreamEndCapture(s, &graph_);
  }
}

void Solver::iterate_public(cudaStream_t s, bool use_graph) {
  if (use_graph) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    cudaStreamSynchronize(s);
    // CHECK: :[[@LINE-1]]:5: error: 'cudaStreamSynchronize' waits
    cudaStreamEndCapture(s, &graph_);
  }
}

// A parameter passed on from a caller that is itself always called with a
// constant.
static void inner(cudaStream_t s, cudaGraph_t *g, bool use_graph) {
  if (use_graph) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    cudaMalloc(nullptr, 16); // quiet: outer passes false on
    cudaStreamEndCapture(s, g);
  }
}
static void outer(cudaStream_t s, cudaGraph_t *g, bool use_graph) {
  inner(s, g, use_graph);
}

void driver(cudaStream_t s, cudaGraph_t *g, bool flag) {
  const bool graphs = false;
  capture_step(s, g, false);
  capture_step(s, g, graphs);
  capture_mixed(s, g, false);
  capture_mixed(s, g, flag);
  capture_escaped(s, g, false);
  capture_exported(s, g, false);
  outer(s, g, false);
}
