// Scenarios for what only a run shows (check_lifecycle.py runs each under
// capture-probe and checks the report): `lifecycle SCENARIO`.
//   node-types    2 copies, 2 memsets, 2 kernels and a host node in a graph
//   to-graph      cudaStreamBeginCaptureToGraph, ended with a null graph
//   good          captured once, launched 100 times (no findings)
//   never-launched a graph manager that captures, instantiates, then runs
//                 the work eagerly: the graph never launches
//   churn         re-captured, instantiated and launched once per step
//   per-launch    captured once, instantiated once per launch
//   unjoined      a stream forked into the capture and never joined (904)
//   not-forked    work on a stream the capture never forked in: it runs
//                 once, at capture time, and the graph lacks it
//   two-thread    a global-mode capture invalidated by another thread's
//                 cudaMalloc
//   fallback      the capture fails (a sync inside), the step runs eagerly
//   sticky        cudaGetLastError after the first error returns it again
//   member        the capture begun in a member function defined in a class
//   freed         a buffer the instantiated graph uses is freed (and its
//                 address reused), then the graph is launched again
//   left-open     a function returns on an error with its capture open
//                 (capture-unended-on-error), and what follows on the stream
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <string>
#include <thread>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(e_));                                    \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

__global__ void scale(float *p, int n, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= a;
}

static void CUDART_CB hostNoop(void *) {}

static const int N = 4096;
static float *dA, *dB, *hPinned;
static cudaStream_t s;

static void step(cudaStream_t st) {
  scale<<<N / 256, 256, 0, st>>>(dA, N, 1.0001f); // STEP-LAUNCH
  scale<<<N / 256, 256, 0, st>>>(dB, N, 0.9999f);
}

static cudaGraph_t captureStep() {
  cudaGraph_t g;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal)); // CAPTURE-STEP
  step(s);
  CHECK(cudaStreamEndCapture(s, &g));
  return g;
}

static int nodeTypes() {
  cudaGraph_t g;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaMemcpyAsync(dA, hPinned, N * sizeof(float), cudaMemcpyHostToDevice, s));
  CHECK(cudaMemcpyAsync(dB, dA, N * sizeof(float), cudaMemcpyDeviceToDevice, s));
  CHECK(cudaMemsetAsync(dA, 0, N * sizeof(float), s));
  CHECK(cudaMemsetAsync(dB, 0, N * sizeof(float), s));
  step(s);
  CHECK(cudaLaunchHostFunc(s, hostNoop, nullptr));
  CHECK(cudaStreamEndCapture(s, &g));
  cudaGraphExec_t e;
  CHECK(cudaGraphInstantiate(&e, g, 0));
  CHECK(cudaGraphLaunch(e, s));
  CHECK(cudaStreamSynchronize(s));
  return 0;
}

static int toGraph() {
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  CHECK(cudaStreamBeginCaptureToGraph(s, g, nullptr, nullptr, 0,
                                      cudaStreamCaptureModeGlobal));
  step(s);
  CHECK(cudaStreamEndCapture(s, nullptr)); // the documented form here
  cudaGraphExec_t e;
  CHECK(cudaGraphInstantiate(&e, g, 0));
  CHECK(cudaGraphLaunch(e, s));
  CHECK(cudaStreamSynchronize(s));
  return 0;
}

static int good() {
  cudaGraph_t g = captureStep();
  cudaGraphExec_t e;
  CHECK(cudaGraphInstantiate(&e, g, 0));
  for (int i = 0; i < 100; ++i)
    CHECK(cudaGraphLaunch(e, s));
  step(s); // a few kernels outside graphs
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaGraphExecDestroy(e));
  return 0;
}

// A hand-written graph cache whose lookup never hits: it captures and
// instantiates, then always falls back to eager execution.
struct GraphCache {
  cudaGraphExec_t exec = nullptr;
  int key = -1;
  void run(int k) {
    if (exec && key == k + 1) { // bug: the key stored is never k + 1
      CHECK(cudaGraphLaunch(exec, s));
      return;
    }
    if (!exec) {
      cudaGraph_t g = captureStep();
      CHECK(cudaGraphInstantiate(&exec, g, 0));
      key = k;
    }
    step(s);
  }
};

static int neverLaunched() {
  GraphCache c;
  for (int i = 0; i < 10; ++i)
    c.run(0);
  CHECK(cudaStreamSynchronize(s));
  return 0;
}

static int churn() {
  for (int i = 0; i < 10; ++i) {
    cudaGraph_t g = captureStep();
    cudaGraphExec_t e;
    CHECK(cudaGraphInstantiate(&e, g, 0));
    CHECK(cudaGraphLaunch(e, s));
    CHECK(cudaGraphExecDestroy(e));
    CHECK(cudaGraphDestroy(g));
  }
  CHECK(cudaStreamSynchronize(s));
  return 0;
}

static int perLaunch() {
  cudaGraph_t g = captureStep();
  for (int i = 0; i < 6; ++i) {
    cudaGraphExec_t e;
    CHECK(cudaGraphInstantiate(&e, g, 0));
    CHECK(cudaGraphLaunch(e, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaGraphExecDestroy(e));
  }
  return 0;
}

static int unjoined() {
  cudaStream_t side;
  cudaEvent_t fork;
  CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
  CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  cudaGraph_t g;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  scale<<<N / 256, 256, 0, s>>>(dA, N, 2.f);
  CHECK(cudaEventRecord(fork, s));
  CHECK(cudaStreamWaitEvent(side, fork, 0)); // FORK
  scale<<<N / 256, 256, 0, side>>>(dB, N, 2.f);
  // Bug: no event recorded on `side` for `s` to wait on.
  cudaError_t e = cudaStreamEndCapture(s, &g);
  std::printf("unjoined: end capture returned %s\n", cudaGetErrorName(e));
  return 0;
}

// Work on a stream never forked into the capture (capture-unjoined-stream,
// tests/lit/real/lifecycle-unjoined.test): what the program sees.
static int notForked() {
  cudaStream_t other;
  CHECK(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
  float one = 1.f, seen = 0.f;
  CHECK(cudaMemcpy(dB, &one, sizeof one, cudaMemcpyHostToDevice));
  cudaGraph_t g;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  scale<<<N / 256, 256, 0, s>>>(dA, N, 2.f);
  scale<<<1, 1, 0, other>>>(dB, 1, 2.f); // NOT-FORKED
  std::printf("not-forked: the launch on the other stream returned %s\n",
              cudaGetErrorName(cudaGetLastError()));
  cudaError_t e = cudaStreamEndCapture(s, &g);
  std::printf("not-forked: end capture returned %s\n", cudaGetErrorName(e));
  size_t nodes = 0;
  CHECK(cudaGraphGetNodes(g, nullptr, &nodes));
  std::printf("not-forked: the graph has %zu node(s)\n", nodes);
  CHECK(cudaStreamSynchronize(other));
  CHECK(cudaMemcpy(&seen, dB, sizeof seen, cudaMemcpyDeviceToHost));
  std::printf("not-forked: after the capture the value is %g\n", seen);
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0));
  for (int i = 0; i < 3; ++i)
    CHECK(cudaGraphLaunch(x, s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaMemcpy(&seen, dB, sizeof seen, cudaMemcpyDeviceToHost));
  std::printf("not-forked: after 3 replays the value is %g\n", seen);
  return 0;
}

static int twoThread() {
  std::atomic<int> phase{0};
  std::thread other([&] {
    while (phase.load() != 1)
      std::this_thread::yield();
    void *p = nullptr;
    cudaError_t e = cudaMalloc(&p, 1 << 20); // OTHER-THREAD
    std::printf("two-thread: other thread's cudaMalloc returned %s\n",
                cudaGetErrorName(e));
    phase.store(2);
  });
  cudaGraph_t g;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  scale<<<N / 256, 256, 0, s>>>(dA, N, 2.f);
  phase.store(1);
  while (phase.load() != 2)
    std::this_thread::yield();
  cudaError_t e = cudaStreamEndCapture(s, &g);
  std::printf("two-thread: end capture returned %s\n", cudaGetErrorName(e));
  other.join();
  return 0;
}

static void stepWithSync(cudaStream_t st) {
  step(st);
  cudaStreamSynchronize(st); // illegal under capture
}

static int fallback() {
  cudaGraph_t g = nullptr;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  stepWithSync(s);
  cudaError_t e = cudaStreamEndCapture(s, &g);
  cudaGetLastError();
  if (e != cudaSuccess) { // the engine quietly runs eagerly from now on
    for (int i = 0; i < 3; ++i)
      stepWithSync(s);
  }
  return 0;
}

static int sticky() {
  cudaGraph_t g = nullptr;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  step(s);
  cudaError_t first = cudaStreamSynchronize(s); // 900
  cudaError_t last = cudaGetLastError();        // STICKY
  cudaStreamEndCapture(s, &g);
  std::printf("sticky: sync %d, cudaGetLastError %d\n", int(first), int(last));
  cudaGetLastError();
  return 0;
}

// A step that fails after the begin returns its error with the capture
// still open; capture-unended-on-error reports the return
// (tests/lit/real/lifecycle-left-open.test).
static cudaError_t recordStep(cudaGraph_t *g, bool stepFails) {
  cudaError_t e = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (e != cudaSuccess)
    return e;
  step(s);
  if (stepFails)
    return cudaErrorInvalidValue; // LEFT-OPEN-RETURN
  return cudaStreamEndCapture(s, g);
}

static int leftOpen() {
  cudaGraph_t g = nullptr;
  auto say = [](const char *what, cudaError_t e) {
    std::printf("left-open: %s returned %s\n", what, cudaGetErrorName(e));
  };
  // The step fails unless LEFT_OPEN_OK is set (a value known only at run
  // time, as a real error is).
  say("the step", recordStep(&g, std::getenv("LEFT_OPEN_OK") == nullptr));
  say("a second begin", cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  say("a stream sync", cudaStreamSynchronize(s));
  void *p = nullptr;
  say("an unrelated cudaMalloc", cudaMalloc(&p, 256));
  say("a late end", cudaStreamEndCapture(s, &g));
  std::printf("left-open: the late end's graph is %s\n", g ? "set" : "null");
  return 0;
}

static int freed() {
  float *buf;
  CHECK(cudaMalloc(&buf, N * sizeof(float)));
  cudaGraph_t g;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  scale<<<N / 256, 256, 0, s>>>(buf, N, 2.f);
  CHECK(cudaStreamEndCapture(s, &g));
  cudaGraphExec_t e;
  CHECK(cudaGraphInstantiate(&e, g, 0));
  CHECK(cudaGraphLaunch(e, s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaFree(buf)); // FREE
  float *other;
  CHECK(cudaMalloc(&other, N * sizeof(float))); // likely the same address
  CHECK(cudaGraphLaunch(e, s)); // STALE-LAUNCH
  CHECK(cudaStreamSynchronize(s));
  std::printf("freed: buffer %p, reused as %p\n", (void *)buf, (void *)other);
  return 0;
}

class Runner {
public:
  explicit Runner(cudaStream_t st) : st(st) {}
  // Defined inside the class: nvcc emits it in its *.cudafe1.cpp.
  void capture() {
    CHECK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal)); // MEMBER
    step(st);
    CHECK(cudaStreamEndCapture(st, &g));
    CHECK(cudaGraphInstantiate(&e, g, 0));
    CHECK(cudaGraphLaunch(e, st));
    CHECK(cudaStreamSynchronize(st));
  }

private:
  cudaStream_t st;
  cudaGraph_t g;
  cudaGraphExec_t e;
};

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: lifecycle SCENARIO\n");
    return 2;
  }
  CHECK(cudaMalloc(&dA, N * sizeof(float)));
  CHECK(cudaMalloc(&dB, N * sizeof(float)));
  CHECK(cudaMallocHost(&hPinned, N * sizeof(float)));
  CHECK(cudaMemset(dA, 0, N * sizeof(float)));
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  std::string w = argv[1];
  if (w == "node-types")
    return nodeTypes();
  if (w == "to-graph")
    return toGraph();
  if (w == "good")
    return good();
  if (w == "never-launched")
    return neverLaunched();
  if (w == "churn")
    return churn();
  if (w == "per-launch")
    return perLaunch();
  if (w == "unjoined")
    return unjoined();
  if (w == "not-forked")
    return notForked();
  if (w == "left-open")
    return leftOpen();
  if (w == "two-thread")
    return twoThread();
  if (w == "fallback")
    return fallback();
  if (w == "sticky")
    return sticky();
  if (w == "freed")
    return freed();
  if (w == "member") {
    Runner r(s);
    r.capture();
    return 0;
  }
  std::fprintf(stderr, "unknown scenario %s\n", w.c_str());
  return 2;
}
