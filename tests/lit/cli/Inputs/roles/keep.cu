// Locals given to work captured through the recorder, whose methods graph.cu
// defines: stop() ends the capture into what the recorder holds, so the
// graph outlives the locals of the function that drives it.
#include "graph.h"

void recordHeader(Recorder &r, cudaStream_t s, float *d, cudaGraph_t *g) {
  r.start();
  {
    float header[2] = {0, 1};
    cudaMemcpyAsync(d, header, sizeof(header), cudaMemcpyHostToDevice, s);
  }
  r.stop(g);
}

// Legal: the recorder is this function's own, gone with the buffer.
void recordLocally(cudaStream_t s, float *d, cudaGraph_t *g) {
  Recorder r(s);
  r.start();
  {
    float header[2] = {0, 1};
    cudaMemcpyAsync(d, header, sizeof(header), cudaMemcpyHostToDevice, s);
  }
  r.stop(nullptr);
}
