// What a CUPTI subscription costs the capture workload, and whether it can be
// held only while a capture is open (measurement, not a test):
//   subscribe-cost none N     no CUPTI at all
//   subscribe-cost always N   subscribed once at the start (runtime and
//                             driver domains enabled, callbacks return at
//                             once), as the probe is
//   subscribe-cost window N   subscribed before each begin and unsubscribed
//                             after each end: instantiation and destruction
//                             run unsubscribed
// Each prints `kinds N (us per capture): KIND US ... total US`
// (capture_kinds.cuh), with the subscription's own calls as the kinds
// subscribe and unsubscribe (window).
#include "capture_kinds.cuh"
#include <cstring>
#include <cupti.h>

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

static void unsubscribe() { CUPTI_CHECK(cuptiUnsubscribe(Subscriber)); }

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
  AroundCapture Around;
  if (Window)
    Around = {"subscribe", subscribe, "unsubscribe", unsubscribe};
  timeCaptureKinds(s, y, x, n, Iters, Around);
  return 0;
}
