#include "helpers.h"

void run(cudaStream_t s, float *p) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  launch_step(s, p);
  flush_logs(s);
  cudaStreamEndCapture(s, &g);
  flush_logs(s); // after the capture: fine
}
