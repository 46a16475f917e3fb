// An AMReX-style graph: recording starts in the first iteration of a loop
// and stops in the last (start/stop helpers take a "first"/"last" flag).
// Planted: one launch on the legacy default stream. The sync after the
// loop is legal (the last iteration ended the capture).
// RUN: not %capture-lint '--checks=*,-capture-unchecked-end' --quiet %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#include <cuda_runtime.h>

namespace gpu {
static cudaStream_t g_stream;
static cudaGraph_t g_graph;
static bool graph_enabled = true;

void start_graph_recording(bool first_iter) {
  if (first_iter && graph_enabled)
    cudaStreamBeginCapture(g_stream, cudaStreamCaptureModeGlobal);
}

cudaGraphExec_t stop_graph_recording(bool last_iter) {
  cudaGraphExec_t exec = nullptr;
  if (last_iter && graph_enabled) {
    cudaStreamEndCapture(g_stream, &g_graph);
    cudaGraphInstantiate(&exec, g_graph, 0);
  }
  return exec;
}
} // namespace gpu

__global__ void fill_box(float *p, int box);
__global__ void copy_box(float *dst, const float *src, int box);

void fill_boundary(float *dst, const float *src, int nboxes) {
  for (int box = 0; box < nboxes; ++box) {
    gpu::start_graph_recording(box == 0);
    copy_box<<<64, 128, 0, gpu::g_stream>>>(dst, src, box);
    fill_box<<<64, 128>>>(dst, box);
    // CHECK: :[[@LINE-1]]:5: error: kernel launch 'fill_box' runs on the legacy default stream (stream argument left at its default) while stream 'g_stream' is capturing
    // CHECK: :[[@LINE-4]]:5: note: capture of stream 'g_stream' begins with this call to 'gpu::start_graph_recording', mode global
    gpu::stop_graph_recording(box == nboxes - 1);
  }
  cudaStreamSynchronize(gpu::g_stream); // after the last iteration: fine
}
