// Issue 23, item 4: what the program proves before a region holds inside
// it. A validation function called on the way to the region that aborts on
// a forbidden combination of options, and a compatibility predicate that
// decides the capture flag, rule out the branches they forbid, in the
// region's function and in the functions it calls. A check that proves
// nothing about the branch (another option, a stream status of another
// stream, a predicate used the wrong way round) is no guard.
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

extern "C" void abort();
struct Options {
  bool graphs;
  int blocking;
  bool verbose;
};

void validate(const Options &o) {
  if (o.graphs && o.blocking == 3)
    abort(); // graphs need a non-blocking mode
}

void step(const Options &opts, cudaStream_t s) {
  if (opts.blocking == 3)
    cudaStreamSynchronize(s); // ruled out under graphs: quiet
  if (opts.verbose)
    cudaDeviceSynchronize(); // nothing rules it out
}

void run(const Options &o, cudaStream_t s, cudaGraph_t *g) {
  validate(o);
  if (o.graphs)
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  step(o, s);
  // CHECK: :[[@LINE-1]]:3: error: call to 'step' reaches 'cudaDeviceSynchronize'
  // CHECK: :[[@LINE-9]]:5: note: 'cudaDeviceSynchronize' is called here
  // CHECK: :[[@LINE-4]]:5: note: capture of stream 's' begins here, mode global
  if (o.blocking == 3)
    cudaStreamSynchronize(s); // in the region's own function too: quiet
  if (o.graphs)
    cudaStreamEndCapture(s, g);
}

// Without the validation nothing is proved.
void run_unvalidated(const Options &o, cudaStream_t s, cudaGraph_t *g) {
  if (o.graphs)
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (o.blocking == 3)
    cudaStreamSynchronize(s);
  // CHECK: :[[@LINE-1]]:5: error: 'cudaStreamSynchronize'
  // CHECK: :[[@LINE-4]]:5: note: capture of stream 's' begins here, mode global
  if (o.graphs)
    cudaStreamEndCapture(s, g);
}

// The project's "can this graph be captured" check decides the flag.
struct Net {
  bool has_host_ops;
  int layers;
};
bool graph_compatible(const Net &n) { return !n.has_host_ops; }
void host_ops(const Net &net, cudaStream_t s) {
  if (net.has_host_ops)
    cudaStreamSynchronize(s); // incompatible nets are not captured: quiet
}
void forward(const Net &n, cudaStream_t s, cudaGraph_t *g) {
  bool use_graph = graph_compatible(n);
  if (use_graph)
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  host_ops(n, s);
  if (use_graph)
    cudaStreamEndCapture(s, g);
}

// A variable written in the region's function does not keep the value it
// had at the begin: a capture begun in the first iteration goes on into the
// next ones.
void loop(cudaStream_t s, cudaGraph_t *g, int n) {
  for (int step = 0; step < n; ++step) {
    if (step == 0)
      cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    if (step != 0)
      cudaDeviceSynchronize();
    // CHECK: :[[@LINE-1]]:7: error: 'cudaDeviceSynchronize'
    // CHECK: :[[@LINE-4]]:7: note: capture of stream 's' begins here
    if (step == n - 1)
      cudaStreamEndCapture(s, g);
  }
}
