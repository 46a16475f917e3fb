// A ggml-style CUDA backend: graph_compute() begins the capture when CUDA
// graphs are enabled, and evaluate_and_capture() (another function) ends it
// under the same flag. Planted: one op synchronizes two calls below the
// region. Everything else is legal and must stay quiet.
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

struct tensor_t { int op; float *data; int n; };
struct cgraph_t { int n_nodes; tensor_t **nodes; };
struct cuda_graph_t {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t instance = nullptr;
  bool disabled = false;
};
struct backend_ctx_t {
  cudaStream_t stream_;
  cuda_graph_t *cuda_graph;
  cudaStream_t stream() { return stream_; }
};

__global__ void k_add(float *x, int n);
__global__ void k_scale(float *x, int n);

static void pool_reserve(backend_ctx_t &ctx, tensor_t *t) {
  cudaStreamSynchronize(ctx.stream()); // waits before reusing a buffer
}

static void op_get_rows(backend_ctx_t &ctx, tensor_t *t) {
  pool_reserve(ctx, t);
  k_scale<<<1, 32, 0, ctx.stream()>>>(t->data, t->n);
}

static void compute_forward(backend_ctx_t &ctx, tensor_t *t) {
  switch (t->op) {
  case 0:
    k_add<<<1, 32, 0, ctx.stream()>>>(t->data, t->n);
    break;
  case 1:
    op_get_rows(ctx, t);
    break;
  }
}

static void evaluate_and_capture(backend_ctx_t *ctx, cgraph_t *g,
                                 bool use_cuda_graph) {
  for (int i = 0; i < g->n_nodes; ++i)
    compute_forward(*ctx, g->nodes[i]);
  if (use_cuda_graph) {
    cudaStreamEndCapture(ctx->stream(), &ctx->cuda_graph->graph);
    cudaGraphInstantiate(&ctx->cuda_graph->instance, ctx->cuda_graph->graph,
                         0);
    cudaGraphLaunch(ctx->cuda_graph->instance, ctx->stream());
  }
}

int graph_compute(backend_ctx_t *ctx, cgraph_t *g) {
  bool use_cuda_graph = ctx->cuda_graph && !ctx->cuda_graph->disabled;
  if (use_cuda_graph)
    cudaStreamBeginCapture(ctx->stream(), cudaStreamCaptureModeRelaxed);
  evaluate_and_capture(ctx, g, use_cuda_graph);
  // CHECK: :[[@LINE-1]]:3: error: call to 'evaluate_and_capture' reaches 'cudaStreamSynchronize' ({{[^)]*}}), which waits for a stream to drain: in a relaxed-mode capture it fails
  // CHECK: :48:5: note: 'evaluate_and_capture' calls 'compute_forward' here
  // CHECK: :40:5: note: 'compute_forward' calls 'op_get_rows' here
  // CHECK: :30:3: note: 'op_get_rows' calls 'pool_reserve' here
  // CHECK: :26:3: note: 'cudaStreamSynchronize' is called here
  // CHECK: :[[@LINE-7]]:5: note: capture of stream 'ctx->stream()' begins here, mode relaxed
  cudaStreamSynchronize(ctx->stream()); // after the capture ended: fine
  return 0;
}
