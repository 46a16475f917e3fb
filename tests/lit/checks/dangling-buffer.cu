// capture-dangling-buffer: memory a graph outlives, and the legal
// look-alikes beside it (buffers that outlive the exec).
// RUN: %expect-exit 1 %capture-lint --quiet --checks=capture-dangling-buffer %s -- %cuda-mock -isystem %S/../regions/Inputs \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>
#include <mock_functional.h>

__global__ void scale(float *out, const float *factors, int n) {}

// A host-side staging buffer that owns its memory (a std::vector stand-in).
struct HostBuffer {
  explicit HostBuffer(int n) : p(new float[n]) {}
  ~HostBuffer() { delete[] p; }
  float *data() { return p; }
  float *p;
};

struct Runner {
  cudaStream_t stream;
  cudaGraphExec_t exec;
  float *d_out, *d_in;

  // The graph is kept in a member; the staging buffer dies on return.
  void capture(int n) {
    HostBuffer staging(n);
    float factors[4] = {1, 2, 3, 4};
    cudaGraph_t graph;
    cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
    cudaMemcpyAsync(d_in, staging.data(), n * sizeof(float),
                    cudaMemcpyHostToDevice, stream);
    // CHECK: :[[@LINE-2]]:27: error: 'staging.data()' points into 'staging', a local of 'Runner::capture' whose storage ends with its scope, but the capture bakes the address into the graph and the graph outlives it ('&exec' is kept beyond 'Runner::capture'): every later launch reads or writes memory that belongs to something else by then, silently; keep the buffer alive beside the graph (a member, or storage owned with it) for as long as the graph is launched [capture-dangling-buffer]
    // CHECK: :[[@LINE-7]]:16: note: 'staging' is declared here
    // CHECK: :[[@LINE-5]]:5: note: the capture of stream 'stream' begins here
    // CHECK: :[[@LINE+9]]:5: note: the graph is kept here
    cudaMemcpyAsync(d_in, factors, sizeof(factors), cudaMemcpyHostToDevice,
                    stream);
    // CHECK: :[[@LINE-2]]:27: error: 'factors' points into 'factors', a local of 'Runner::capture'
    // CHECK: :[[@LINE-12]]:11: note: 'factors' is declared here
    // CHECK: :[[@LINE-11]]:5: note: the capture of stream 'stream' begins here
    // CHECK: :[[@LINE+3]]:5: note: the graph is kept here
    scale<<<1, 32, 0, stream>>>(d_out, d_in, n); // device memory: fine
    cudaStreamEndCapture(stream, &graph);
    cudaGraphInstantiate(&exec, graph, 0);
  }
};

// A buffer freed between the capture and a launch.
void freed(cudaStream_t s, float *d_out, float *d_in, int n) {
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  scale<<<1, 32, 0, s>>>(d_out, d_in, n);
  cudaStreamEndCapture(s, &graph);
  cudaGraphInstantiate(&exec, graph, 0);
  cudaFree(d_in);
  // CHECK: :[[@LINE-1]]:3: error: 'cudaFree' frees 'd_in', which work captured into the graph uses, and a graph is launched after it: the launch uses the freed memory
  // CHECK: :[[@LINE-6]]:3: note: the capture of stream 's' begins here
  // CHECK: :[[@LINE+1]]:3: note: the graph is launched here
  cudaGraphLaunch(exec, s);
}

// A staging buffer in a scope that ends before the launch.
void scoped(cudaStream_t s, float *d_in, int n) {
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  {
    HostBuffer staging(n);
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    cudaMemcpyAsync(d_in, staging.data(), n * sizeof(float),
                    cudaMemcpyHostToDevice, s);
    // CHECK: :[[@LINE-2]]:27: error: 'staging.data()' points into 'staging', a local of 'scoped' whose storage ends with its scope, but the capture bakes the address into the graph and a graph is launched after 'staging' goes out of scope
    // CHECK: :[[@LINE-5]]:16: note: 'staging' is declared here
    // CHECK: :[[@LINE-5]]:5: note: the capture of stream 's' begins here
    // CHECK: :[[@LINE+5]]:5: note: the graph is launched here
    cudaStreamEndCapture(s, &graph);
  }
  cudaGraphInstantiate(&exec, graph, 0);
  for (int i = 0; i < 3; ++i)
    cudaGraphLaunch(exec, s);
}

// The graph ends in a local, then goes to a member: kept all the same.
struct Holder {
  cudaGraph_t graph_;
  void make(cudaStream_t s, float *d_in) {
    float bias[2] = {0, 1};
    cudaGraph_t g = nullptr;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    cudaMemcpyAsync(d_in, bias, sizeof(bias), cudaMemcpyHostToDevice, s);
    // CHECK: :[[@LINE-1]]:27: error: 'bias' points into 'bias', a local of 'Holder::make' whose storage ends with its scope, but the capture bakes the address into the graph and the graph outlives it ('graph_' is kept beyond 'Holder::make')
    // CHECK: :[[@LINE-5]]:11: note: 'bias' is declared here
    // CHECK: :[[@LINE-4]]:5: note: the capture of stream 's' begins here
    // CHECK: :[[@LINE+2]]:5: note: the graph is kept here
    cudaStreamEndCapture(s, &g);
    graph_ = g;
  }
  // Legal: the graph stays in a local and is destroyed unlaunched.
  void probe(cudaStream_t s, float *d_in) {
    float bias[2] = {0, 1};
    cudaGraph_t g = nullptr, copy = nullptr;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    cudaMemcpyAsync(d_in, bias, sizeof(bias), cudaMemcpyHostToDevice, s);
    cudaStreamEndCapture(s, &g);
    copy = g;
    cudaGraphDestroy(copy);
  }
};

// A closer that launches the graph itself: its call is a launch, after the
// staging block's end.
cudaGraphExec_t endAndLaunch(cudaGraph_t &graph, cudaStream_t s, bool launch) {
  cudaGraphExec_t exec;
  cudaStreamEndCapture(s, &graph);
  cudaGraphInstantiate(&exec, graph, 0);
  if (launch)
    cudaGraphLaunch(exec, s);
  return exec;
}

void viaCloser(cudaStream_t s, float *d_in) {
  cudaGraph_t graph;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  {
    float header[2] = {0, 1};
    cudaMemcpyAsync(d_in, header, sizeof(header), cudaMemcpyHostToDevice, s);
    // CHECK: :[[@LINE-1]]:27: error: 'header' points into 'header', a local of 'viaCloser' whose storage ends with its scope, but the capture bakes the address into the graph and a graph is launched after 'header' goes out of scope
    // CHECK: :[[@LINE-3]]:11: note: 'header' is declared here
    // CHECK: :[[@LINE-6]]:3: note: the capture of stream 's' begins here
    // CHECK: :[[@LINE+2]]:3: note: the graph is launched here
  }
  endAndLaunch(graph, s, true);
}

// Legal: the buffer lives until the closer has launched the graph.
void viaCloserAlive(cudaStream_t s, float *d_in) {
  float header[2] = {0, 1};
  cudaGraph_t graph;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(d_in, header, sizeof(header), cudaMemcpyHostToDevice, s);
  endAndLaunch(graph, s, true);
}

// An opener: it returns with the capture open and its callers end it, so
// its locals are gone before the graph exists.
bool beginWithHeader(cudaStream_t s, float *d_in) {
  float header[2] = {0, 1};
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess)
    return false;
  cudaMemcpyAsync(d_in, header, sizeof(header), cudaMemcpyHostToDevice, s);
  // CHECK: :[[@LINE-1]]:25: error: 'header' points into 'header', a local of 'beginWithHeader' whose storage ends with its scope, but the capture bakes the address into the graph and the graph outlives it ('beginWithHeader' returns with the capture open, and its callers end it after 'header' is gone)
  // CHECK: :[[@LINE-5]]:9: note: 'header' is declared here
  // CHECK: :[[@LINE-5]]:7: note: the capture of stream 's' begins here
  return true;
}

void usesOpener(cudaStream_t s, float *d_in, cudaGraph_t *graph) {
  if (beginWithHeader(s, d_in))
    cudaStreamEndCapture(s, graph);
}

// Legal: the buffers live as long as the graph, which this function
// launches and destroys; a free after the last launch.
void alive(cudaStream_t s, float *d_out, float *d_in, int n) {
  HostBuffer staging(n);
  float factors[4] = {1, 2, 3, 4};
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(d_in, staging.data(), n * sizeof(float),
                  cudaMemcpyHostToDevice, s);
  cudaMemcpyAsync(d_in, factors, sizeof(factors), cudaMemcpyHostToDevice, s);
  scale<<<1, 32, 0, s>>>(d_out, d_in, n);
  cudaStreamEndCapture(s, &graph);
  cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphLaunch(exec, s);
  cudaFree(d_in);
}

// Legal: the staging buffer is a member, kept beside the graph.
struct Kept {
  cudaStream_t stream;
  cudaGraphExec_t exec;
  float *d_in;
  HostBuffer staging{16};
  void capture() {
    cudaGraph_t graph;
    cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
    cudaMemcpyAsync(d_in, staging.data(), 16 * sizeof(float),
                    cudaMemcpyHostToDevice, stream);
    cudaStreamEndCapture(stream, &graph);
    cudaGraphInstantiate(&exec, graph, 0);
  }
};

cudaError_t cudaGraphInstantiateWithNode(cudaGraphExec_t *e, cudaGraph_t g,
                                         cudaGraphNode_t *errorNode);

// Legal: a null out-argument for an error node is no graph kept anywhere
// (rocPRIM's test_hipgraph_basic.cpp: hipGraphInstantiate(&instance, graph,
// nullptr, nullptr, 0), with a local host value copied in and out).
void null_error_node(cudaStream_t s, int *d_data) {
  int h_data = 0;
  cudaGraph_t graph;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(d_data, &h_data, sizeof(int), cudaMemcpyHostToDevice, s);
  cudaMemcpyAsync(&h_data, d_data, sizeof(int), cudaMemcpyDeviceToHost, s);
  cudaStreamEndCapture(s, &graph);
  cudaGraphExec_t instance;
  cudaGraphInstantiateWithNode(&instance, graph, nullptr);
  for (int i = 0; i < 3; i++)
    cudaGraphLaunch(instance, s);
}

// A graph object whose closer keeps the graph (and its exec) in members:
// captured through an object the caller does not own, the graph outlives
// the caller's locals.
struct GraphRunner {
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  void beginCapture(cudaStream_t s) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  }
  void endCapture(cudaStream_t s) {
    (void)cudaStreamEndCapture(s, &graph);
    (void)cudaGraphInstantiate(&exec, graph, 0);
  }
};

void throughRunner(GraphRunner *runner, cudaStream_t s, float *d_in) {
  runner->beginCapture(s);
  {
    float header[2] = {0, 1};
    cudaMemcpyAsync(d_in, header, sizeof(header), cudaMemcpyHostToDevice, s);
    // CHECK: :[[@LINE-1]]:27: error: 'header' points into 'header', a local of 'throughRunner' whose storage ends with its scope, but the capture bakes the address into the graph and the graph outlives it ('runner' is kept beyond 'throughRunner')
    // CHECK: :[[@LINE-3]]:11: note: 'header' is declared here
    // CHECK: :[[@LINE-6]]:11: note: the capture of stream 's' begins here
    // CHECK: :[[@LINE+2]]:3: note: the graph is kept here
  }
  runner->endCapture(s);
}

// Legal: the runner is the caller's own local, gone with the buffer.
void throughLocalRunner(cudaStream_t s, float *d_in) {
  GraphRunner runner;
  runner.beginCapture(s);
  {
    float header[2] = {0, 1};
    cudaMemcpyAsync(d_in, header, sizeof(header), cudaMemcpyHostToDevice, s);
  }
  runner.endCapture(s);
}

// A pause and a resume of the caller's capture (warp's
// insert_child_graph): the function returns with the capture open, so its
// locals given to work captured after the resume are gone before the
// caller ends it.
bool pauseCapture(cudaStream_t s, cudaGraph_t *graph) {
  return cudaStreamEndCapture(s, graph) == cudaSuccess;
}
bool resumeCapture(cudaStream_t s) {
  return cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess;
}
bool addChild(cudaStream_t s, float *d_in) {
  cudaGraph_t paused;
  if (!pauseCapture(s, &paused))
    return false;
  if (!resumeCapture(s))
    return false;
  float header[2] = {0, 1};
  cudaMemcpyAsync(d_in, header, sizeof(header), cudaMemcpyHostToDevice, s);
  // CHECK: :[[@LINE-1]]:25: error: 'header' points into 'header', a local of 'addChild' whose storage ends with its scope, but the capture bakes the address into the graph and the graph outlives it ('addChild' returns with the capture open, and its callers end it after 'header' is gone)
  // CHECK: :[[@LINE-3]]:9: note: 'header' is declared here
  // CHECK: :[[@LINE-6]]:8: note: the capture of stream 's' begins here
  return true;
}

// Legal: an opener that returns a guard whose destructor ends, instantiates
// and launches the graph (tiny-cuda-nn's capture_guard). The opener's body
// ends a capture, but it is no closer of this region: the guard launches
// the graph while the buffer still lives, and each step captures anew.
template <typename F> struct EndGuard {
  F f;
  ~EndGuard() { f(); }
};
struct GuardedGraph {
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  auto captureGuard(cudaStream_t s) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
    auto end = [this, s] {
      (void)cudaStreamEndCapture(s, &graph);
      (void)cudaGraphInstantiate(&exec, graph, 0);
      (void)cudaGraphLaunch(exec, s);
    };
    return EndGuard<decltype(end)>{end};
  }
};
void guardedStep(GuardedGraph &g, cudaStream_t s, float *d_in) {
  float header[2] = {0, 1};
  {
    auto guard = g.captureGuard(s);
    cudaMemcpyAsync(d_in, header, sizeof(header), cudaMemcpyHostToDevice, s);
  }
}

// The same guard, with the buffer in a block of its own inside the guard's
// scope: the guard's destructor launches the graph after the buffer is gone.
void guardedScratch(GuardedGraph &g, cudaStream_t s, float *d_in) {
  auto guard = g.captureGuard(s);
  {
    float header[2] = {0, 1};
    cudaMemcpyAsync(d_in, header, sizeof(header), cudaMemcpyHostToDevice, s);
    // CHECK: :[[@LINE-1]]:27: error: 'header' points into 'header', a local of 'guardedScratch' whose storage ends with its scope, but the capture bakes the address into the graph and a graph is launched after 'header' goes out of scope
    // CHECK: :[[@LINE-3]]:11: note: 'header' is declared here
    // CHECK: :[[@LINE-6]]:18: note: the capture of stream 's' begins here
  }
  // CHECK: :[[@LINE+1]]:1: note: the graph is launched here
}

// tiny-cuda-nn's Shampoo step: a guard holding a std::function, chosen by
// a conditional (an empty guard on the first step). Where the guard dies
// the held callable ends the capture and launches the graph.
struct HeldGuard {
  HeldGuard() = default;
  HeldGuard(std::function<void()> &&f) : f(static_cast<decltype(f) &&>(f)) {}
  HeldGuard(HeldGuard &&o) : f(static_cast<decltype(f) &&>(o.f)) {}
  ~HeldGuard() {
    if (f)
      f();
  }
  std::function<void()> f;
};
struct HeldGraph {
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  HeldGuard captureGuard(cudaStream_t s) {
    if (!s)
      return {};
    cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
    return HeldGuard{[this, s] {
      (void)cudaStreamEndCapture(s, &graph);
      (void)cudaGraphInstantiate(&exec, graph, 0);
      (void)cudaGraphLaunch(exec, s);
    }};
  }
};
void heldStep(HeldGraph &g, cudaStream_t s, float *d_in, int step) {
  float kept[2] = {0, 1};
  {
    auto guard = step == 0 ? HeldGuard{} : g.captureGuard(s);
    cudaMemcpyAsync(d_in, kept, sizeof(kept), cudaMemcpyHostToDevice, s);
    {
      float header[2] = {0, 1};
      cudaMemcpyAsync(d_in, header, sizeof(header), cudaMemcpyHostToDevice, s);
      // CHECK: :[[@LINE-1]]:29: error: 'header' points into 'header', a local of 'heldStep' whose storage ends with its scope, but the capture bakes the address into the graph and a graph is launched after 'header' goes out of scope
      // CHECK: :[[@LINE-3]]:13: note: 'header' is declared here
      // CHECK: :[[@LINE-7]]:46: note: the capture of stream 's' begins here
    }
    // CHECK: :[[@LINE+1]]:3: note: the graph is launched here
  }
}

// A local declared by a for statement dies with the loop: a launch after
// the loop reads dead storage.
void forScoped(cudaStream_t s, float *d_in, cudaGraphExec_t exec) {
  cudaGraph_t graph;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  for (float header[2] = {0, 1}; header[0] < 1; header[0] += 1)
    cudaMemcpyAsync(d_in, header, sizeof(header), cudaMemcpyHostToDevice, s);
  // CHECK: :[[@LINE-1]]:27: error: 'header' points into 'header', a local of 'forScoped' whose storage ends with its scope, but the capture bakes the address into the graph and a graph is launched after 'header' goes out of scope
  // CHECK: :[[@LINE-3]]:14: note: 'header' is declared here
  // CHECK: :[[@LINE-5]]:3: note: the capture of stream 's' begins here
  // CHECK: :[[@LINE+3]]:3: note: the graph is launched here
  (void)cudaStreamEndCapture(s, &graph);
  (void)cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphLaunch(exec, s);
}

// In a class template whose state is a nested struct (cutlass's distributed
// GEMM adapter): `&state_.graph` has a dependent type, and the end call's
// parameter says it is a graph kept in a member.
template <int TP> struct DistAdapter {
  struct State {
    cudaGraph_t graph;
    float *flags[TP];
  };
  State state_;
  int construct(cudaStream_t stream, float *d_in) {
    if (cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed) !=
        cudaSuccess)
      return 1;
    float header[2] = {0, 1};
    cudaMemcpyAsync(d_in, header, sizeof(header), cudaMemcpyHostToDevice,
                    stream);
    // CHECK: :[[@LINE-2]]:27: error: 'header' points into 'header', a local of 'DistAdapter::construct' whose storage ends with its scope, but the capture bakes the address into the graph and the graph outlives it ('&state_.graph' is kept beyond 'DistAdapter::construct')
    // CHECK: :[[@LINE-4]]:11: note: 'header' is declared here
    // CHECK: :[[@LINE-8]]:9: note: the capture of stream 'stream' begins here
    // CHECK: :[[@LINE+1]]:9: note: the graph is kept here
    if (cudaStreamEndCapture(stream, &state_.graph) != cudaSuccess)
      return 1;
    return 0;
  }
};

// The graph kept in an element of a container member (rccl's
// `&this->graphs[g][r][i]` of nested std::vectors): the element's type is
// spelled `value_type *`, a graph under its sugar.
template <typename T> struct Slots {
  using value_type = T;
  using reference = value_type &;
  reference operator[](unsigned I);
};
struct TestBed {
  Slots<cudaGraph_t> graphs;
  void capture(cudaStream_t s, float *d_in, unsigned i) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
    {
      float header[2] = {0, 1};
      cudaMemcpyAsync(d_in, header, sizeof(header), cudaMemcpyHostToDevice, s);
      // CHECK: :[[@LINE-1]]:29: error: 'header' points into 'header', a local of 'TestBed::capture' whose storage ends with its scope, but the capture bakes the address into the graph and the graph outlives it ('&graphs[i]' is kept beyond 'TestBed::capture')
      // CHECK: :[[@LINE-3]]:13: note: 'header' is declared here
      // CHECK: :[[@LINE-6]]:5: note: the capture of stream 's' begins here
      // CHECK: :[[@LINE+2]]:11: note: the graph is kept here
    }
    (void)cudaStreamEndCapture(s, &graphs[i]);
  }
};
