#include "graph.h"

void begin_graph(cudaStream_t s) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
}

void end_graph(cudaStream_t s, cudaGraph_t *g) { cudaStreamEndCapture(s, g); }

bool is_capturing(cudaStream_t s) {
  cudaStreamCaptureStatus st;
  cudaStreamIsCapturing(s, &st);
  return st != cudaStreamCaptureStatusNone;
}

cudaGraph_t capture_with(cudaStream_t s, const std::function<void()> &body) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  body();
  cudaStreamEndCapture(s, &g);
  return g;
}

Recorder::Recorder(cudaStream_t s) : stream_(s) {}

void Recorder::start() {
  cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal);
}

void Recorder::stop(cudaGraph_t *g) { cudaStreamEndCapture(stream_, g); }
