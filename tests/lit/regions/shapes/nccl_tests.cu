// An nccl-tests-style benchmark: with graph launches enabled the timed loop
// is captured; a blocking option makes each collective wait for its stream,
// two calls below the region. Set-up and the checks after the loop are
// legal.
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>
#include <nccl.h>

static int blocking_coll = 0;     // -z
static int cuda_graph_launches = 0; // -G

struct args_t {
  ncclComm_t comm;
  cudaStream_t stream;
  float *send, *recv;
  size_t count;
};

static int stream_wait(cudaStream_t s) {
  cudaError_t err = cudaErrorNotReady;
  while (err == cudaErrorNotReady)
    err = cudaStreamQuery(s);
  return err == cudaSuccess ? 0 : 1;
}

static int complete_coll(args_t *a) {
  if (blocking_coll)
    return stream_wait(a->stream);
  return 0;
}

static int start_coll(args_t *a) {
  ncclAllReduce(a->send, a->recv, a->count, ncclFloat, ncclSum, a->comm,
                a->stream);
  return complete_coll(a);
}

int bench_time(args_t *a, int iters) {
  ncclUniqueId id;
  ncclGetUniqueId(&id);
  ncclCommInitRank(&a->comm, 1, id, 0); // set-up before the region: fine
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  if (cuda_graph_launches >= 1)
    cudaStreamBeginCapture(a->stream, cudaStreamCaptureModeThreadLocal);
  for (int i = 0; i < iters; ++i)
    start_coll(a);
  // CHECK: :[[@LINE-1]]:5: error: call to 'start_coll' reaches 'cudaStreamQuery' ({{[^)]*}}), which
  // CHECK: :36:10: note: 'start_coll' calls 'complete_coll' here
  // CHECK: :29:12: note: 'complete_coll' calls 'stream_wait' here
  // CHECK: :23:11: note: 'cudaStreamQuery' is called here
  if (cuda_graph_launches >= 1) {
    cudaStreamEndCapture(a->stream, &graph);
    cudaGraphInstantiate(&exec, graph, 0);
    for (int l = 0; l < cuda_graph_launches; ++l)
      cudaGraphLaunch(exec, a->stream);
  }
  complete_coll(a); // after the capture: fine
  return stream_wait(a->stream);
}
