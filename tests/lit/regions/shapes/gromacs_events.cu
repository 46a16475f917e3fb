// A GROMACS-style captured step: the local stream forks the non-local one
// with events, both launch, the non-local stream joins back, and an
// external event marks coordinates ready for consumers outside the graph.
// Planted: waiting for the coordinates through a synchronizer helper, three
// calls below the region. The fork/join and external event records are
// legal and must stay quiet.
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

__global__ void nbnxm_local(float *f);
__global__ void nbnxm_nonlocal(float *f);

class EventSynchronizer {
public:
  void mark(cudaStream_t s) {
    cudaEventRecordWithFlags(event_, s, cudaEventRecordExternal);
  }
  void wait_on_device(cudaStream_t s) { cudaStreamWaitEvent(s, event_, 0); }
  void wait_for_event() { cudaEventSynchronize(event_); }

private:
  cudaEvent_t event_;
};

struct StatePropagator {
  EventSynchronizer x_ready;
  void wait_coordinates_ready() { x_ready.wait_for_event(); }
};

struct MdGraph {
  cudaStream_t local, nonlocal;
  cudaEvent_t fork, join;
  cudaGraph_t graph;
  StatePropagator *state;

  void launch_forces(float *f) {
    nbnxm_local<<<128, 64, 0, local>>>(f);
    nbnxm_nonlocal<<<128, 64, 0, nonlocal>>>(f);
    state->wait_coordinates_ready();
  }

  void capture_step(float *f) {
    cudaStreamBeginCapture(local, cudaStreamCaptureModeGlobal);
    cudaEventRecord(fork, local);
    cudaStreamWaitEvent(nonlocal, fork, 0);
    launch_forces(f);
    // CHECK: :[[@LINE-1]]:5: error: call to 'MdGraph::launch_forces' reaches 'cudaEventSynchronize' ({{[^)]*}}), which waits for an event
    // CHECK: :40:12: note: 'MdGraph::launch_forces' calls 'StatePropagator::wait_coordinates_ready' here
    // CHECK: :28:43: note: 'StatePropagator::wait_coordinates_ready' calls 'EventSynchronizer::wait_for_event' here
    // CHECK: :20:27: note: 'cudaEventSynchronize' is called here
    state->x_ready.mark(local);
    cudaEventRecord(join, nonlocal);
    cudaStreamWaitEvent(local, join, 0);
    cudaStreamEndCapture(local, &graph);
    state->x_ready.wait_for_event(); // after the capture: fine
  }
};
