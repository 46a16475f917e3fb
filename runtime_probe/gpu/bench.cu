// Workloads for the probe's overhead benchmark (bench_probe.py):
//   probe-bench replay N   capture a graph of 20 small kernels once, replay
//                          it N times (the steady state of a graphed engine)
//   probe-bench capture N  capture and instantiate a 20-kernel graph N times
//                          (engines that re-capture per shape)
//   probe-bench kinds N    the capture workload, each call timed: the mean
//                          microseconds per capture of each kind of call
//                          (begin, 20 launches, end, instantiate, exec
//                          destroy, destroy), to tell where a cost lies
// Prints the workload's own time (ms, CUDA events) and the CPU time its
// thread spent (ms; a run preempted by other work on its core is not charged
// for the wait, which on shared machines moves the wall time more than the
// probe does), excluding start-up and a
// warm-up (one replay; 100 captures): a first capture's one-time costs (the
// driver's, and the probe's first stack walk) are not what N measures.
#include "capture_kinds.cuh"
#include <cstring>

static cudaGraph_t captureOnce(cudaStream_t s, float *y, const float *x,
                               int n) {
  cudaGraph_t g;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  for (int k = 0; k < 20; ++k)
    axpy<<<(n + 255) / 256, 256, 0, s>>>(y, x, 0.001f * k, n);
  CHECK(cudaStreamEndCapture(s, &g));
  return g;
}

static double threadCpuMs() {
  timespec T;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T);
  return T.tv_sec * 1e3 + T.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  if (argc != 3 ||
      (std::strcmp(argv[1], "replay") && std::strcmp(argv[1], "capture") &&
       std::strcmp(argv[1], "kinds"))) {
    std::fprintf(stderr, "usage: probe-bench replay|capture|kinds N\n");
    return 2;
  }
  int iters = std::atoi(argv[2]);
  int n = 1 << 16;
  float *x, *y;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  CHECK(cudaMemset(x, 0, n * sizeof(float)));
  CHECK(cudaMemset(y, 0, n * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t t0, t1;
  CHECK(cudaEventCreate(&t0));
  CHECK(cudaEventCreate(&t1));
  float ms = 0;
  double cpu0 = 0, cpu1 = 0;
  if (!std::strcmp(argv[1], "kinds")) {
    timeCaptureKinds(s, y, x, n, iters);
    return 0;
  }
  if (!std::strcmp(argv[1], "replay")) {
    cudaGraph_t g = captureOnce(s, y, x, n);
    cudaGraphExec_t e;
    CHECK(cudaGraphInstantiate(&e, g, 0));
    CHECK(cudaGraphLaunch(e, s)); // warm-up
    CHECK(cudaStreamSynchronize(s));
    cpu0 = threadCpuMs();
    CHECK(cudaEventRecord(t0, s));
    for (int i = 0; i < iters; ++i)
      CHECK(cudaGraphLaunch(e, s));
    CHECK(cudaEventRecord(t1, s));
    cpu1 = threadCpuMs();
    CHECK(cudaEventSynchronize(t1));
    CHECK(cudaEventElapsedTime(&ms, t0, t1));
  } else {
    auto once = [&] {
      cudaGraph_t g = captureOnce(s, y, x, n);
      cudaGraphExec_t e;
      CHECK(cudaGraphInstantiate(&e, g, 0));
      CHECK(cudaGraphExecDestroy(e));
      CHECK(cudaGraphDestroy(g));
    };
    for (int i = 0; i < 100; ++i) // warm-up
      once();
    CHECK(cudaStreamSynchronize(s));
    cpu0 = threadCpuMs();
    CHECK(cudaEventRecord(t0, s));
    for (int i = 0; i < iters; ++i)
      once();
    CHECK(cudaEventRecord(t1, s));
    cpu1 = threadCpuMs();
    CHECK(cudaEventSynchronize(t1));
    CHECK(cudaEventElapsedTime(&ms, t0, t1));
  }
  std::printf("%s %d: %.3f ms, cpu %.3f ms\n", argv[1], iters, ms, cpu1 - cpu0);
  return 0;
}
