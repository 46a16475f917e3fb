// The capture workload of the probe's benchmarks (probe-bench, subscribe-
// cost): a 20-kernel graph captured, instantiated and destroyed over and
// over, each kind of call timed. Prints `kinds N (us per capture): KIND US
// ... total US` (read by kinds_summary.py).
#ifndef CAPTURE_PROBE_GPU_CAPTURE_KINDS_CUH
#define CAPTURE_PROBE_GPU_CAPTURE_KINDS_CUH

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <time.h>

__global__ void axpy(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += a * x[i];
}

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(e_));                                    \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

static double nowUs() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec * 1e6 + T.tv_nsec / 1e3;
}

/// Optional steps around each capture, timed as kinds of their own.
struct AroundCapture {
  const char *BeforeName = nullptr; // before the begin
  void (*Before)() = nullptr;
  const char *AfterName = nullptr; // after the end
  void (*After)() = nullptr;
};

/// The capture workload with each call timed (after 100 warm-up captures);
/// prints microseconds per capture by kind of call.
static void timeCaptureKinds(cudaStream_t s, float *y, const float *x, int n,
                             int iters, AroundCapture Around = {}) {
  const char *Names[] = {
      Around.BeforeName, "begin",       "launches",     "end",
      Around.AfterName,  "instantiate", "exec-destroy", "destroy"};
  double Sum[8] = {};
  for (int i = -100; i < iters; ++i) {
    double T[9];
    cudaGraph_t g;
    cudaGraphExec_t e;
    T[0] = nowUs();
    if (Around.Before)
      Around.Before();
    T[1] = nowUs();
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    T[2] = nowUs();
    for (int k = 0; k < 20; ++k)
      axpy<<<(n + 255) / 256, 256, 0, s>>>(y, x, 0.001f * k, n);
    T[3] = nowUs();
    CHECK(cudaStreamEndCapture(s, &g));
    T[4] = nowUs();
    if (Around.After)
      Around.After();
    T[5] = nowUs();
    CHECK(cudaGraphInstantiate(&e, g, 0));
    T[6] = nowUs();
    CHECK(cudaGraphExecDestroy(e));
    T[7] = nowUs();
    CHECK(cudaGraphDestroy(g));
    T[8] = nowUs();
    if (i >= 0)
      for (int k = 0; k < 8; ++k)
        Sum[k] += T[k + 1] - T[k];
  }
  double Total = 0;
  std::printf("kinds %d (us per capture):", iters);
  for (int k = 0; k < 8; ++k) {
    if (!Names[k])
      continue;
    std::printf(" %s %.2f", Names[k], Sum[k] / iters);
    Total += Sum[k] / iters;
  }
  std::printf(" total %.2f\n", Total);
}

#endif // CAPTURE_PROBE_GPU_CAPTURE_KINDS_CUH
