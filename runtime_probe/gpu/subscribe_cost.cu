// What a CUPTI subscription costs the capture workload, and whether it can be
// held only while a capture is open (measurement, not a test):
//   subscribe-cost none N     no CUPTI at all
//   subscribe-cost always N   subscribed once at the start (runtime and
//                             driver domains enabled, callbacks return at
//                             once), as the probe is
//   subscribe-cost window N   subscribed before each begin and unsubscribed
//                             after each end: instantiation and destruction
//                             run unsubscribed
// Each prints `kinds N (us per capture): KIND US ... total US` (the lines of
// probe-bench kinds, read by kinds_summary.py), with the subscription's own
// calls as the kinds subscribe and unsubscribe.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <cupti.h>
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

#define CUPTI_CHECK(call)                                                      \
  do {                                                                         \
    CUptiResult r_ = (call);                                                   \
    if (r_ != CUPTI_SUCCESS) {                                                 \
      const char *m_ = nullptr;                                                \
      cuptiGetResultString(r_, &m_);                                           \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, m_);             \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

static void CUPTIAPI onCallback(void *, CUpti_CallbackDomain, CUpti_CallbackId,
                                const void *) {}

static CUpti_SubscriberHandle Subscriber;

static void subscribe() {
  CUPTI_CHECK(cuptiSubscribe(&Subscriber, onCallback, nullptr));
  CUPTI_CHECK(cuptiEnableDomain(1, Subscriber, CUPTI_CB_DOMAIN_RUNTIME_API));
  CUPTI_CHECK(cuptiEnableDomain(1, Subscriber, CUPTI_CB_DOMAIN_DRIVER_API));
}

static double nowUs() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec * 1e6 + T.tv_nsec / 1e3;
}

int main(int argc, char **argv) {
  if (argc != 3 ||
      (std::strcmp(argv[1], "none") && std::strcmp(argv[1], "always") &&
       std::strcmp(argv[1], "window"))) {
    std::fprintf(stderr, "usage: subscribe-cost none|always|window N\n");
    return 2;
  }
  bool Always = !std::strcmp(argv[1], "always");
  bool Window = !std::strcmp(argv[1], "window");
  int Iters = std::atoi(argv[2]);
  int n = 1 << 16;
  float *x, *y;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  if (Always)
    subscribe();
  const char *Names[] = {"subscribe",    "begin",   "launches",
                         "end",          "unsubscribe", "instantiate",
                         "exec-destroy", "destroy"};
  double Sum[8] = {};
  for (int i = -100; i < Iters; ++i) { // 100 warm-up captures
    double T[9];
    cudaGraph_t g;
    cudaGraphExec_t e;
    T[0] = nowUs();
    if (Window)
      subscribe();
    T[1] = nowUs();
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    T[2] = nowUs();
    for (int k = 0; k < 20; ++k)
      axpy<<<(n + 255) / 256, 256, 0, s>>>(y, x, 0.001f * k, n);
    T[3] = nowUs();
    CHECK(cudaStreamEndCapture(s, &g));
    T[4] = nowUs();
    if (Window)
      CUPTI_CHECK(cuptiUnsubscribe(Subscriber));
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
  std::printf("kinds %d (us per capture):", Iters);
  for (int k = 0; k < 8; ++k) {
    std::printf(" %s %.2f", Names[k], Sum[k] / Iters);
    Total += Sum[k] / Iters;
  }
  std::printf(" total %.2f\n", Total);
  return 0;
}
