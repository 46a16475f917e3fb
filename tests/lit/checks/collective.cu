// capture-collective: collectives that only some ranks capture, and
// communicator set-up in a region; the legal look-alikes beside them.
// RUN: %expect-exit 1 %capture-lint --quiet --checks=capture-collective %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>
#include <nccl.h>

struct Ctx {
  ncclComm_t comm;
  int rank;
  int nranks;
  float *buf;
};

void reduce_on_root(Ctx &c, cudaStream_t s) {
  ncclAllReduce(c.buf, c.buf, 1024, ncclFloat, ncclSum, c.comm, s);
  // CHECK-DAG: :[[@LINE-1]]:3: note: 'ncclAllReduce' is called here
}

void uneven(Ctx &c, cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (c.rank == 0)
    ncclAllReduce(c.buf, c.buf, 1024, ncclFloat, ncclSum, c.comm, s);
  // CHECK-DAG: :[[@LINE-1]]:5: error: 'ncclAllReduce' runs only on the ranks where 'c.rank == 0' holds: a captured collective must be captured on every rank of its communicator, so the ranks record different graphs and a replay waits in 'ncclAllReduce' for ranks whose graph lacks it (a hang, not an error); make the collective on every rank and let the rank choose the data, not the call [capture-collective]
  // CHECK-DAG: :[[@LINE-3]]:7: note: the branch on the rank
  int my_rank = 0;
  ncclCommUserRank(c.comm, &my_rank);
  bool root = my_rank == 0;
  if (!root)
    reduce_on_root(c, s);
  // CHECK-DAG: :[[@LINE-1]]:5: error: call to 'reduce_on_root' reaches 'ncclAllReduce' (collective.cu:16), which runs only on the ranks where '!root' holds
  for (int i = 0; i < c.rank; ++i)
    ncclBroadcast(c.buf, c.buf, 16, ncclFloat, 0, c.comm, s);
  // CHECK-DAG: :[[@LINE-1]]:5: error: 'ncclBroadcast' runs as many times as a loop on the rank ('i < c.rank') repeats, which differs between ranks
  cudaStreamEndCapture(s, g);
}

void uniform(Ctx &c, cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  // Every rank makes a collective: both arms of the branch do.
  if (c.rank == 0)
    ncclBroadcast(c.buf, c.buf, 16, ncclFloat, 0, c.comm, s);
  else
    ncclBroadcast(c.buf, c.buf, 16, ncclFloat, 0, c.comm, s);
  // The rank chooses the data, not the call.
  float *src = c.rank == 0 ? c.buf : c.buf + 16;
  ncclAllReduce(src, c.buf, 16, ncclFloat, ncclSum, c.comm, s);
  // A count of ranks is the same on every rank.
  if (c.nranks > 1)
    ncclAllReduce(c.buf, c.buf, 16, ncclFloat, ncclSum, c.comm, s);
  // Point-to-point pairs differ by rank on purpose: not collectives.
  if (c.rank == 0)
    ncclSend(c.buf, 16, ncclFloat, 1, c.comm, s);
  else
    ncclRecv(c.buf, 16, ncclFloat, 0, c.comm, s);
  cudaStreamEndCapture(s, g);
}

void rank_branch_outside(Ctx &c, cudaStream_t s, cudaGraph_t *g) {
  // The branch is outside the capture: each rank captures the same graph.
  if (c.rank == 0) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    ncclAllReduce(c.buf, c.buf, 16, ncclFloat, ncclSum, c.comm, s);
    cudaStreamEndCapture(s, g);
  }
}

void setup_inside(Ctx &c, cudaStream_t s, cudaGraph_t *g, ncclUniqueId id) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  ncclCommInitRank(&c.comm, c.nranks, id, c.rank);
  // CHECK-DAG: :[[@LINE-1]]:3: error: 'ncclCommInitRank' is an NCCL set-up call (it allocates and synchronizes){{.*}}[capture-collective]
  cudaStreamEndCapture(s, g);
}
