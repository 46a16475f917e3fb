//===- HipScenarios.cpp - HIP programs the interposer must see through ----===//
//
// One scenario per run (`hip-scenarios NAME`), each a capture region with one
// documented hazard, against the simulated libamdhip64 (SimHipRuntime.cpp).
// check_hip_probe.py runs each under `capture-probe run --backend hip` and
// checks the report, call sites included: the `// SITE:` markers name the
// lines it expects.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <hip/hip_runtime_api.h>
#include <thread>

namespace {

void scale(const uint64_t *Args) { // a "kernel": args = {float *data, n}
  float *Data = reinterpret_cast<float *>(Args[0]);
  for (uint64_t I = 0; I < Args[1]; ++I)
    Data[I] *= 2.f;
}

struct Fixture {
  hipStream_t S = nullptr;
  float *Dev = nullptr, *Host = nullptr;
  uint64_t N = 16;
  explicit Fixture(unsigned Flags = hipStreamDefault) {
    hipStreamCreateWithFlags(&S, Flags);
    hipMalloc(reinterpret_cast<void **>(&Dev), N * sizeof(float));
    hipHostMalloc(reinterpret_cast<void **>(&Host), N * sizeof(float), 0);
  }
  hipError_t launch(hipStream_t On) {
    void *DevArg = Dev;
    void *Args[] = {&DevArg, &N, nullptr};
    return hipLaunchKernel(reinterpret_cast<const void *>(&scale), dim3(1),
                           dim3(1), Args, 0, On);
  }
  /// Ends the capture; replays the graph if there is one. 0 if captured.
  int finish() {
    hipGraph_t G = nullptr;
    hipError_t E = hipStreamEndCapture(S, &G);
    std::printf("end: %s\n", hipGetErrorName(E));
    if (E != hipSuccess)
      return 1;
    hipGraphExec_t X;
    hipGraphInstantiate(&X, G, nullptr, nullptr, 0);
    hipGraphLaunch(X, S);
    hipGraphExecDestroy(X);
    hipGraphDestroy(G);
    return 0;
  }
};

int clean() {
  Fixture F;
  hipStreamBeginCapture(F.S, hipStreamCaptureModeGlobal);
  hipMemcpyAsync(F.Dev, F.Host, F.N * sizeof(float), hipMemcpyHostToDevice,
                 F.S);
  F.launch(F.S);
  return F.finish();
}

int mallocGlobal() {
  Fixture F;
  hipStreamBeginCapture(F.S, hipStreamCaptureModeGlobal);
  void *P = nullptr;
  hipMalloc(&P, 64); // SITE: malloc-global
  F.launch(F.S);
  return F.finish();
}

int mallocRelaxed() {
  Fixture F;
  hipStreamBeginCapture(F.S, hipStreamCaptureModeGlobal);
  hipStreamCaptureMode M = hipStreamCaptureModeRelaxed;
  hipThreadExchangeStreamCaptureMode(&M);
  void *P = nullptr;
  hipMalloc(&P, 64); // SITE: malloc-relaxed
  hipThreadExchangeStreamCaptureMode(&M);
  F.launch(F.S);
  return F.finish();
}

int syncMemcpy() {
  Fixture F;
  hipStreamBeginCapture(F.S, hipStreamCaptureModeThreadLocal);
  F.launch(F.S);
  size_t Bytes = F.N * sizeof(float);
  hipMemcpy(F.Host, F.Dev, Bytes, hipMemcpyDeviceToHost); // SITE: sync-memcpy
  return F.finish();
}

int legacyLaunchNonBlocking() {
  Fixture F(hipStreamNonBlocking);
  hipStreamBeginCapture(F.S, hipStreamCaptureModeGlobal);
  F.launch(F.S);
  F.launch(nullptr); // SITE: legacy-launch
  return F.finish();
}

int streamSync() {
  Fixture F;
  hipStreamBeginCapture(F.S, hipStreamCaptureModeRelaxed);
  F.launch(F.S);
  hipStreamSynchronize(F.S); // SITE: stream-sync
  return F.finish();
}

int capturedEventSync() {
  Fixture F;
  hipEvent_t E;
  hipEventCreate(&E);
  hipStreamBeginCapture(F.S, hipStreamCaptureModeGlobal);
  F.launch(F.S);
  hipEventRecord(E, F.S);
  hipEventSynchronize(E); // SITE: event-sync
  return F.finish();
}

int otherThreadMalloc() {
  Fixture F;
  hipStreamBeginCapture(F.S, hipStreamCaptureModeGlobal);
  F.launch(F.S);
  std::thread T([] {
    void *P = nullptr;
    hipMalloc(&P, 64); // SITE: other-thread
  });
  T.join();
  return F.finish();
}

int neverEnded() {
  Fixture F;
  hipStreamBeginCapture(F.S, hipStreamCaptureModeGlobal);
  void *P = nullptr;
  hipError_t E = hipMalloc(&P, 64); // SITE: never-ended
  if (E != hipSuccess) {
    std::fprintf(stderr, "hipMalloc: %s\n", hipGetErrorName(E));
    std::abort(); // as HIP_CHECK macros do
  }
  return F.finish();
}

struct Scenario {
  const char *Name;
  int (*Run)();
};
const Scenario Scenarios[] = {
    {"clean", clean},
    {"malloc-global", mallocGlobal},
    {"malloc-relaxed", mallocRelaxed},
    {"sync-memcpy", syncMemcpy},
    {"legacy-launch-nonblocking", legacyLaunchNonBlocking},
    {"stream-sync", streamSync},
    {"captured-event-sync", capturedEventSync},
    {"other-thread-malloc", otherThreadMalloc},
    {"never-ended", neverEnded},
};

} // namespace

int main(int Argc, char **Argv) {
  if (Argc == 2)
    for (const Scenario &S : Scenarios)
      if (std::strcmp(S.Name, Argv[1]) == 0)
        return S.Run();
  std::fprintf(stderr, "usage: hip-scenarios NAME; names:");
  for (const Scenario &S : Scenarios)
    std::fprintf(stderr, " %s", S.Name);
  std::fprintf(stderr, "\n");
  return 2;
}
