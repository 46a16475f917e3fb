// The decode step and its capture into a CUDA graph.
#include "cuda_check.h"
#include "decoder.h"
#include "sampler.h"

__global__ void project(const float *w, const float *h, float *out, int dim,
                        int vocab) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= vocab)
    return;
  float acc = 0.f;
  for (int i = 0; i < dim; ++i)
    acc += w[row * dim + i] * h[i];
  out[row] = acc;
}

__global__ void residual(float *h, int dim) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < dim)
    h[i] = h[i] * 0.5f + 1.f;
}

// Debug aid: copies the logits back and checks them for NaNs. Fine in eager
// mode; inside a capture the synchronous copy is illegal.
static bool logits_are_finite(const float *logits, int vocab) {
  static float host[4096];
  int n = vocab < 4096 ? vocab : 4096;
  CUDA_CHECK(cudaMemcpy(host, logits, sizeof(float) * n,
                        cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (host[i] != host[i])
      return false;
  return true;
}

void Decoder::init(int d, int v, int max_tokens) {
  dim = d;
  vocab = v;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CUDA_CHECK(cudaMalloc(&hidden, sizeof(float) * dim));
  CUDA_CHECK(cudaMalloc(&logits, sizeof(float) * vocab));
  CUDA_CHECK(cudaMalloc(&weights, sizeof(float) * vocab * dim));
  CUDA_CHECK(cudaMalloc(&next_token, sizeof(int)));
  CUDA_CHECK(cudaMallocHost(&host_token, sizeof(int)));
  cache.allocate(max_tokens, dim);
}

void Decoder::step() {
  int threads = 256;
  project<<<(vocab + threads - 1) / threads, threads, 0, stream>>>(
      weights, hidden, logits, dim, vocab);
  // Bug: launched on the legacy default stream, not on `stream`. On this
  // non-blocking stream the capture silently leaves it out of the graph.
  residual<<<(dim + threads - 1) / threads, threads>>>(hidden, dim);
  if (!logits_are_finite(logits, vocab))
    std::fprintf(stderr, "NaN in logits\n");
  cache.reserve(cache.length + 1, stream);
  cache.append(hidden, hidden, stream);
  sample_argmax(logits, vocab, next_token, stream);
}

void Decoder::capture_step() {
  cudaGraph_t graph;
  CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  step();
  // Bug: reads the sampled token on the host inside the capture. The copy
  // is recorded into the graph, so the value here is stale.
  CUDA_CHECK(cudaMemcpyAsync(host_token, next_token, sizeof(int),
                             cudaMemcpyDeviceToHost, stream));
  if (host_token[0] == 0) // end-of-sequence check baked into the graph
    CUDA_CHECK(cudaStreamSynchronize(stream));
  CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
  CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CUDA_CHECK(cudaGraphDestroy(graph));
}

int Decoder::replay_step() {
  CUDA_CHECK(cudaGraphLaunch(exec, stream));
  CUDA_CHECK(cudaMemcpyAsync(host_token, next_token, sizeof(int),
                             cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream)); // after the launch: correct
  return *host_token;
}
