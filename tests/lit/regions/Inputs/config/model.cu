#include <cuda_runtime.h>

void vendor_flush(cudaStream_t s);
bool vendor_is_capturing(cudaStream_t s);
void run_graphed(cudaStream_t s, void (*body)(cudaStream_t));
void checked_sync(cudaStream_t s) { cudaStreamSynchronize(s); }

struct Model {
  void forward(cudaStream_t s);
};

void Model::forward(cudaStream_t s) {
  checked_sync(s);
  vendor_flush(s); // CONFIG-FORWARD
  if (!vendor_is_capturing(s))
    cudaDeviceSynchronize();
}

void body(cudaStream_t s) {
  cudaMemset(nullptr, 0, 4); // CONFIG-BODY
}

void graphed(cudaStream_t s) { run_graphed(s, body); }
