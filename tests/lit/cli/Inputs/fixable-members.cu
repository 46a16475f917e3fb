#include <cuda_runtime.h>
__global__ void kernel(float *p) {}
struct Engine {
  cudaStream_t stream_;
  cudaStream_t streams[2];
  void run(float *d) {
    cudaGraph_t g;
    cudaStreamBeginCapture(this->stream_, cudaStreamCaptureModeGlobal);
    kernel<<<1, 32>>>(d);
    cudaMemsetAsync(d, 0, 16);
    cudaStreamEndCapture(this->stream_, &g);
  }
  void run_side(float *d) {
    cudaGraph_t g;
    cudaStreamBeginCapture(streams[1], cudaStreamCaptureModeGlobal);
    kernel<<<1, 32>>>(d);
    cudaStreamEndCapture(streams[1], &g);
  }
  void decode(float *d) {
    cudaGraph_t g;
    cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal);
    project(d);
    cudaStreamEndCapture(stream_, &g);
  }
  void project(float *d) { kernel<<<1, 32>>>(d); }
};
void scale(float *d) { kernel<<<1, 32>>>(d); }
void scale_on(float *d, cudaStream_t st) { cudaMemsetAsync(d, 0, 16); }
void step(cudaStream_t s, float *d) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  scale(d);
  scale_on(d, s);
  cudaStreamEndCapture(s, &g);
}
