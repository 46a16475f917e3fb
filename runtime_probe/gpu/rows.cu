// One capture per (row, stream kind, mode) of the CUDA table in
// shared/notes/capture-rules.md: `rows ROW` runs the row's call inside a
// capture on a blocking and a non-blocking stream in global, thread-local
// and relaxed mode (six captures, in that order). check_rows.py runs every
// row under capture-probe and checks what the probe reports against the
// table. Errors are not checked here on purpose: the probe records them.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>
#include <string>
#include <thread>
#include <vector>

__global__ void bump(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] += 1.f;
}

static void hostFn(void *) {}
static void CUDART_CB callbackFn(cudaStream_t, cudaError_t, void *) {}

struct Ctx {
  cudaStream_t s, other;
  float *dev;
  float *pinned;
  std::vector<float> pageable;
  cudaEvent_t captured_event, uncaptured_event;
  cudaGraphExec_t exec;
  int n = 1024;
};

using Row = void (*)(Ctx &);

static void capturedWork(Ctx &c) {
  bump<<<4, 256, 0, c.s>>>(c.dev, c.n);
  cudaMemcpyAsync(c.pinned, c.dev, c.n * sizeof(float), cudaMemcpyDeviceToHost,
                  c.s);
  cudaMemsetAsync(c.dev, 0, c.n * sizeof(float), c.s);
}
static void pageableAsync(Ctx &c) {
  cudaMemcpyAsync(c.pageable.data(), c.dev, c.n * sizeof(float),
                  cudaMemcpyDeviceToHost, c.s);
}
static void mallocAsync(Ctx &c) {
  void *p = nullptr;
  cudaMallocAsync(&p, 1 << 20, c.s);
  cudaFreeAsync(p, c.s);
}
static void hostFunc(Ctx &c) { cudaLaunchHostFunc(c.s, hostFn, nullptr); }
static void legalCalls(Ctx &c) {
  cudaStream_t t;
  cudaStreamCreate(&t);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  cudaGetLastError();
  cudaPeekAtLastError();
  bump<<<4, 256, 0, c.s>>>(c.dev, c.n);
}
static void legacyKernel(Ctx &c) { bump<<<4, 256>>>(c.dev, c.n); }
static void syncMemcpy(Ctx &c) {
  cudaMemcpy(c.pageable.data(), c.dev, c.n * sizeof(float),
             cudaMemcpyDeviceToHost);
}
static void malloc_(Ctx &c) {
  void *p = nullptr;
  if (cudaMalloc(&p, 1 << 20) == cudaSuccess)
    cudaFree(p);
}
static void streamSyncCapturing(Ctx &c) {
  bump<<<4, 256, 0, c.s>>>(c.dev, c.n);
  cudaStreamSynchronize(c.s);
}
static void streamSyncOther(Ctx &c) { cudaStreamSynchronize(c.other); }
static void deviceSync(Ctx &) { cudaDeviceSynchronize(); }
static void eventSyncCaptured(Ctx &c) {
  bump<<<4, 256, 0, c.s>>>(c.dev, c.n);
  cudaEventRecord(c.captured_event, c.s);
  cudaEventSynchronize(c.captured_event);
}
static void eventQueryUncaptured(Ctx &c) { cudaEventQuery(c.uncaptured_event); }
static void waitUncapturedEvent(Ctx &c) {
  cudaStreamWaitEvent(c.s, c.uncaptured_event, 0);
}
static void forkUnjoined(Ctx &c) {
  cudaEvent_t e;
  cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
  cudaEventRecord(e, c.s);
  cudaStreamWaitEvent(c.other, e, 0);
  bump<<<4, 256, 0, c.other>>>(c.dev, c.n);
}
static void addCallback(Ctx &c) {
  cudaStreamAddCallback(c.s, callbackFn, nullptr, 0);
}
static void graphLaunch(Ctx &c) { cudaGraphLaunch(c.exec, c.s); }
static void otherThreadMalloc(Ctx &) {
  std::thread t([] {
    void *p = nullptr;
    if (cudaMalloc(&p, 1 << 20) == cudaSuccess)
      cudaFree(p);
  });
  t.join();
}
static void exchangeRelaxedMalloc(Ctx &c) {
  // What PyTorch's caching allocator does inside torch.cuda.graph.
  cudaStreamCaptureMode m = cudaStreamCaptureModeRelaxed;
  cudaThreadExchangeStreamCaptureMode(&m);
  void *p = nullptr;
  cudaMalloc(&p, 1 << 20);
  cudaThreadExchangeStreamCaptureMode(&m);
  bump<<<4, 256, 0, c.s>>>(c.dev, c.n);
}
static void driverAlloc(Ctx &) {
  CUdeviceptr p = 0;
  if (cuMemAlloc(&p, 1 << 20) == CUDA_SUCCESS)
    cuMemFree(p);
}

struct RowDef {
  const char *name;
  Row fn;
};
static const RowDef Rows[] = {
    {"captured-work", capturedWork},
    {"pageable-async", pageableAsync},
    {"malloc-async", mallocAsync},
    {"host-func", hostFunc},
    {"legal-calls", legalCalls},
    {"legacy-kernel", legacyKernel},
    {"sync-memcpy", syncMemcpy},
    {"malloc", malloc_},
    {"stream-sync-capturing", streamSyncCapturing},
    {"stream-sync-other", streamSyncOther},
    {"device-sync", deviceSync},
    {"event-sync-captured", eventSyncCaptured},
    {"event-query-uncaptured", eventQueryUncaptured},
    {"wait-uncaptured-event", waitUncapturedEvent},
    {"fork-unjoined", forkUnjoined},
    {"add-callback", addCallback},
    {"graph-launch", graphLaunch},
    {"other-thread-malloc", otherThreadMalloc},
    {"exchange-relaxed-malloc", exchangeRelaxedMalloc},
    {"driver-alloc", driverAlloc},
};

int main(int argc, char **argv) {
  const RowDef *row = nullptr;
  for (const RowDef &r : Rows)
    if (argc == 2 && std::strcmp(argv[1], r.name) == 0)
      row = &r;
  if (!row) {
    std::fprintf(stderr, "usage: rows ROW; rows:");
    for (const RowDef &r : Rows)
      std::fprintf(stderr, " %s", r.name);
    std::fprintf(stderr, "\n");
    return 2;
  }
  Ctx c;
  cudaFree(nullptr);
  cudaMalloc(&c.dev, c.n * sizeof(float));
  cudaMallocHost(&c.pinned, c.n * sizeof(float));
  c.pageable.resize(c.n);
  cudaEventCreate(&c.captured_event);
  cudaEventCreate(&c.uncaptured_event);
  cudaStreamCreateWithFlags(&c.other, cudaStreamNonBlocking);
  cudaEventRecord(c.uncaptured_event, c.other);
  { // a small graph to launch into the capturing stream
    cudaStream_t t;
    cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking);
    cudaGraph_t g;
    cudaStreamBeginCapture(t, cudaStreamCaptureModeGlobal);
    bump<<<4, 256, 0, t>>>(c.dev, c.n);
    cudaStreamEndCapture(t, &g);
    cudaGraphInstantiate(&c.exec, g, 0);
    cudaStreamDestroy(t);
  }
  cudaDeviceSynchronize();
  const cudaStreamCaptureMode modes[] = {cudaStreamCaptureModeGlobal,
                                         cudaStreamCaptureModeThreadLocal,
                                         cudaStreamCaptureModeRelaxed};
  for (unsigned flags :
       {unsigned(cudaStreamDefault), unsigned(cudaStreamNonBlocking)})
    for (cudaStreamCaptureMode mode : modes) {
      cudaStreamCreateWithFlags(&c.s, flags);
      cudaGraph_t g = nullptr;
      cudaError_t begin = cudaStreamBeginCapture(c.s, mode);
      row->fn(c);
      cudaError_t end = cudaStreamEndCapture(c.s, &g);
      if (end == cudaSuccess && g) {
        cudaGraphExec_t x;
        if (cudaGraphInstantiate(&x, g, 0) == cudaSuccess) {
          cudaGraphLaunch(x, c.s);
          cudaStreamSynchronize(c.s);
          cudaGraphExecDestroy(x);
        }
        cudaGraphDestroy(g);
      }
      std::printf("%s %s mode=%d: begin=%s end=%s\n", row->name,
                  flags ? "non-blocking" : "blocking", int(mode),
                  cudaGetErrorName(begin), cudaGetErrorName(end));
      cudaDeviceSynchronize();
      cudaStreamSynchronize(c.other);
      cudaStreamDestroy(c.s);
      cudaGetLastError();
    }
  return 0;
}
