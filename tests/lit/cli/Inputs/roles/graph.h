// An engine's capture helpers, declared here and defined in graph.cu: the
// files that use them never see their bodies.
#pragma once
#include <cuda_runtime.h>
#include <functional>

void begin_graph(cudaStream_t s);
void end_graph(cudaStream_t s, cudaGraph_t *g);
bool is_capturing(cudaStream_t s);
cudaGraph_t capture_with(cudaStream_t s, const std::function<void()> &body);

class Recorder {
public:
  explicit Recorder(cudaStream_t s);
  void start();
  void stop(cudaGraph_t *g);

private:
  cudaStream_t stream_;
};
