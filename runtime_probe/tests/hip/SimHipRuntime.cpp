//===- SimHipRuntime.cpp - A simulated HIP runtime for the probe's tests --===//
//
// Built as libamdhip64.so.5 from Debian's HIP headers, so the HIP
// interposer can be tested with no AMD GPU and no ROCm. "Device" memory is
// host memory and work runs synchronously on the host. It reproduces the
// capture behaviour documented in shared/notes/capture-rules.md (HIP and the
// CUDA table):
//   - allocations (hipMalloc, hipFree, hipHostMalloc, hipMallocManaged):
//     hipErrorStreamCaptureUnsupported and the capture invalidated while a
//     global capture (any thread) or a thread-local capture of this thread is
//     active, unless the thread's mode is relaxed: then they run eagerly;
//   - synchronous hipMemcpy/hipMemset: hipErrorStreamCaptureImplicit in any
//     mode while this thread captures;
//   - kernels and host functions on the null stream: implicit (906) while a
//     blocking stream captures; while only non-blocking streams capture they
//     run eagerly and are not captured (as measured with CUDA);
//   - hipDeviceSynchronize, hipStreamSynchronize/Query of a capturing
//     stream: unsupported (900); hipEventSynchronize/Query of an event
//     recorded in a capture: hipErrorCapturedEvent (907);
//   - work on the capturing stream becomes graph nodes, replayed by
//     hipGraphLaunch; a later call on an invalidated capture returns 901.
// Kernels are host functions `void k(const uint64_t *args)`; the argument
// array passed to hipLaunchKernel is null-terminated and every argument is
// 8 bytes (copied at launch, as the real runtime copies kernel arguments).
//
//===----------------------------------------------------------------------===//

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__
#endif
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <hip/hip_runtime_api.h>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#define SIM_API extern "C" __attribute__((visibility("default")))

typedef void (*SimKernel)(const uint64_t *);

struct hipGraphNode {
  hipGraphNodeType Type;
  std::function<void()> Run;
};
struct ihipGraph {
  std::vector<std::unique_ptr<hipGraphNode>> Nodes;
};
struct hipGraphExec {
  std::vector<std::function<void()>> Ops;
};

struct Capture {
  hipStreamCaptureMode Mode;
  std::thread::id Thread;
  bool Invalidated = false;
  ihipGraph *Graph = nullptr;
};

struct ihipStream_t {
  unsigned Flags = 0;
  std::unique_ptr<Capture> Cap;
};

struct ihipEvent_t {
  bool Captured = false; // last recorded inside a capture
};

namespace {

std::recursive_mutex Lock;
std::vector<ihipStream_t *> Streams;
thread_local hipError_t LastError = hipSuccess;
thread_local hipStreamCaptureMode ThreadMode = hipStreamCaptureModeGlobal;

hipError_t ret(hipError_t E) {
  if (E != hipSuccess)
    LastError = E;
  return E;
}

bool capturing(hipStream_t S) { return S && S->Cap != nullptr; }

/// Captures an unsafe call on this thread would invalidate.
std::vector<Capture *> affected() {
  std::vector<Capture *> Out;
  for (ihipStream_t *S : Streams)
    if (S->Cap && (S->Cap->Mode == hipStreamCaptureModeGlobal ||
                   (S->Cap->Mode == hipStreamCaptureModeThreadLocal &&
                    S->Cap->Thread == std::this_thread::get_id())))
      Out.push_back(S->Cap.get());
  return Out;
}

/// hipSuccess if an unsafe call may run now; else invalidates and fails.
hipError_t unsafeCall() {
  if (ThreadMode == hipStreamCaptureModeRelaxed)
    return hipSuccess;
  auto A = affected();
  if (A.empty())
    return hipSuccess;
  for (Capture *C : A)
    C->Invalidated = true;
  return hipErrorStreamCaptureUnsupported;
}

/// Captures begun by this thread.
std::vector<Capture *> mine() {
  std::vector<Capture *> Out;
  for (ihipStream_t *S : Streams)
    if (S->Cap && S->Cap->Thread == std::this_thread::get_id())
      Out.push_back(S->Cap.get());
  return Out;
}

/// Work on the null stream while something captures.
hipError_t legacyWork(bool Synchronous) {
  bool Blocking = false, Any = false;
  for (ihipStream_t *S : Streams)
    if (S->Cap) {
      Any = true;
      Blocking |= !(S->Flags & hipStreamNonBlocking);
    }
  if (!Any)
    return hipSuccess;
  if (Synchronous && !mine().empty()) {
    for (Capture *C : mine())
      C->Invalidated = true;
    return hipErrorStreamCaptureImplicit;
  }
  if (Blocking) {
    for (ihipStream_t *S : Streams)
      if (S->Cap && !(S->Flags & hipStreamNonBlocking))
        S->Cap->Invalidated = true;
    return hipErrorStreamCaptureImplicit;
  }
  return hipSuccess; // runs now, outside every graph
}

/// Runs \p Op now, or records it as a node of S's capture.
hipError_t submit(hipStream_t S, hipGraphNodeType T, std::function<void()> Op) {
  std::lock_guard<std::recursive_mutex> G(Lock);
  if (!S) {
    if (hipError_t E = legacyWork(false))
      return ret(E);
    Op();
    return hipSuccess;
  }
  if (!capturing(S)) {
    Op();
    return hipSuccess;
  }
  if (S->Cap->Invalidated)
    return ret(hipErrorStreamCaptureInvalidated);
  auto N = std::make_unique<hipGraphNode>();
  N->Type = T;
  N->Run = std::move(Op);
  S->Cap->Graph->Nodes.push_back(std::move(N));
  return hipSuccess;
}

} // namespace

SIM_API hipError_t hipInit(unsigned) { return hipSuccess; }
SIM_API hipError_t hipSetDevice(int) { return hipSuccess; }
SIM_API hipError_t hipGetDeviceCount(int *N) {
  *N = 1;
  return hipSuccess;
}
SIM_API hipError_t hipGetLastError(void) {
  hipError_t E = LastError;
  LastError = hipSuccess;
  return E;
}

SIM_API const char *hipGetErrorName(hipError_t E) {
  switch (E) {
  case hipSuccess:
    return "hipSuccess";
  case hipErrorInvalidValue:
    return "hipErrorInvalidValue";
  case hipErrorOutOfMemory:
    return "hipErrorOutOfMemory";
  case hipErrorNotReady:
    return "hipErrorNotReady";
  case hipErrorIllegalState:
    return "hipErrorIllegalState";
  case hipErrorStreamCaptureUnsupported:
    return "hipErrorStreamCaptureUnsupported";
  case hipErrorStreamCaptureInvalidated:
    return "hipErrorStreamCaptureInvalidated";
  case hipErrorStreamCaptureUnmatched:
    return "hipErrorStreamCaptureUnmatched";
  case hipErrorStreamCaptureIsolation:
    return "hipErrorStreamCaptureIsolation";
  case hipErrorStreamCaptureImplicit:
    return "hipErrorStreamCaptureImplicit";
  case hipErrorCapturedEvent:
    return "hipErrorCapturedEvent";
  case hipErrorStreamCaptureWrongThread:
    return "hipErrorStreamCaptureWrongThread";
  default:
    return "hipErrorUnknown";
  }
}
SIM_API const char *hipGetErrorString(hipError_t E) {
  return hipGetErrorName(E);
}

SIM_API hipError_t hipStreamCreateWithFlags(hipStream_t *S, unsigned Flags) {
  std::lock_guard<std::recursive_mutex> G(Lock);
  *S = new ihipStream_t;
  (*S)->Flags = Flags;
  Streams.push_back(*S);
  return hipSuccess;
}
SIM_API hipError_t hipStreamCreate(hipStream_t *S) {
  return hipStreamCreateWithFlags(S, hipStreamDefault);
}
SIM_API hipError_t hipStreamDestroy(hipStream_t S) {
  std::lock_guard<std::recursive_mutex> G(Lock);
  for (size_t I = 0; I < Streams.size(); ++I)
    if (Streams[I] == S) {
      Streams.erase(Streams.begin() + long(I));
      delete S;
      return hipSuccess;
    }
  return ret(hipErrorInvalidHandle);
}
SIM_API hipError_t hipStreamGetFlags(hipStream_t S, unsigned *Flags) {
  if (!S)
    return ret(hipErrorInvalidHandle);
  *Flags = S->Flags;
  return hipSuccess;
}

SIM_API hipError_t hipThreadExchangeStreamCaptureMode(hipStreamCaptureMode *M) {
  if (!M)
    return ret(hipErrorInvalidValue);
  std::swap(ThreadMode, *M);
  return hipSuccess;
}

SIM_API hipError_t hipStreamBeginCapture(hipStream_t S,
                                         hipStreamCaptureMode M) {
  std::lock_guard<std::recursive_mutex> G(Lock);
  if (!S)
    return ret(hipErrorStreamCaptureUnsupported); // the null stream
  if (S->Cap)
    return ret(hipErrorIllegalState);
  S->Cap = std::make_unique<Capture>();
  S->Cap->Mode = M;
  S->Cap->Thread = std::this_thread::get_id();
  S->Cap->Graph = new ihipGraph;
  return hipSuccess;
}

SIM_API hipError_t hipStreamEndCapture(hipStream_t S, hipGraph_t *Graph) {
  std::lock_guard<std::recursive_mutex> G(Lock);
  if (!capturing(S))
    return ret(hipErrorIllegalState);
  if (S->Cap->Mode != hipStreamCaptureModeRelaxed &&
      S->Cap->Thread != std::this_thread::get_id())
    return ret(hipErrorStreamCaptureWrongThread);
  std::unique_ptr<Capture> C = std::move(S->Cap);
  if (C->Invalidated) {
    delete C->Graph;
    *Graph = nullptr;
    return ret(hipErrorStreamCaptureInvalidated);
  }
  *Graph = C->Graph;
  return hipSuccess;
}

SIM_API hipError_t hipStreamIsCapturing(hipStream_t S,
                                        hipStreamCaptureStatus *Status) {
  std::lock_guard<std::recursive_mutex> G(Lock);
  *Status = !capturing(S)         ? hipStreamCaptureStatusNone
            : S->Cap->Invalidated ? hipStreamCaptureStatusInvalidated
                                  : hipStreamCaptureStatusActive;
  return hipSuccess;
}

// Allocation: unsafe under capture.
static hipError_t allocate(void **P, size_t N) {
  std::lock_guard<std::recursive_mutex> G(Lock);
  if (hipError_t E = unsafeCall())
    return ret(E);
  *P = std::calloc(1, N ? N : 1);
  return *P ? hipSuccess : ret(hipErrorOutOfMemory);
}
static hipError_t release(void *P) {
  std::lock_guard<std::recursive_mutex> G(Lock);
  if (hipError_t E = unsafeCall())
    return ret(E);
  std::free(P);
  return hipSuccess;
}
SIM_API hipError_t hipMalloc(void **P, size_t N) { return allocate(P, N); }
SIM_API hipError_t hipHostMalloc(void **P, size_t N, unsigned) {
  return allocate(P, N);
}
SIM_API hipError_t hipMallocManaged(void **P, size_t N, unsigned) {
  return allocate(P, N);
}
SIM_API hipError_t hipFree(void *P) { return release(P); }
SIM_API hipError_t hipHostFree(void *P) { return release(P); }

SIM_API hipError_t hipMallocAsync(void **P, size_t N, hipStream_t S) {
  std::lock_guard<std::recursive_mutex> G(Lock);
  *P = std::calloc(1, N ? N : 1);
  if (capturing(S))
    return submit(S, hipGraphNodeTypeEmpty, [] {}); // 5.2 has no mem-alloc type
  return hipSuccess;
}
SIM_API hipError_t hipFreeAsync(void *P, hipStream_t S) {
  std::lock_guard<std::recursive_mutex> G(Lock);
  if (capturing(S))
    return submit(S, hipGraphNodeTypeEmpty, [] {});
  std::free(P);
  return hipSuccess;
}

// Synchronous copies and sets use the null stream.
SIM_API hipError_t hipMemcpy(void *D, const void *Src, size_t N,
                             hipMemcpyKind) {
  std::lock_guard<std::recursive_mutex> G(Lock);
  if (hipError_t E = legacyWork(true))
    return ret(E);
  std::memmove(D, Src, N);
  return hipSuccess;
}
SIM_API hipError_t hipMemset(void *D, int V, size_t N) {
  std::lock_guard<std::recursive_mutex> G(Lock);
  if (hipError_t E = legacyWork(true))
    return ret(E);
  std::memset(D, V, N);
  return hipSuccess;
}
SIM_API hipError_t hipMemcpyAsync(void *D, const void *Src, size_t N,
                                  hipMemcpyKind, hipStream_t S) {
  return submit(S, hipGraphNodeTypeMemcpy, [=] { std::memmove(D, Src, N); });
}
SIM_API hipError_t hipMemsetAsync(void *D, int V, size_t N, hipStream_t S) {
  return submit(S, hipGraphNodeTypeMemset, [=] { std::memset(D, V, N); });
}
SIM_API hipError_t hipLaunchKernel(const void *F, dim3, dim3, void **Args,
                                   size_t, hipStream_t S) {
  std::vector<uint64_t> Copied;
  for (size_t I = 0; Args && Args[I]; ++I) {
    uint64_t V;
    std::memcpy(&V, Args[I], sizeof V);
    Copied.push_back(V);
  }
  Copied.push_back(0);
  auto K = reinterpret_cast<SimKernel>(const_cast<void *>(F));
  return submit(S, hipGraphNodeTypeKernel, [=] { K(Copied.data()); });
}
SIM_API hipError_t hipLaunchHostFunc(hipStream_t S, hipHostFn_t F, void *U) {
  return submit(S, hipGraphNodeTypeHost, [=] { F(U); });
}

SIM_API hipError_t hipDeviceSynchronize(void) {
  std::lock_guard<std::recursive_mutex> G(Lock);
  if (!mine().empty() || !affected().empty()) {
    for (Capture *C : mine())
      C->Invalidated = true;
    return ret(hipErrorStreamCaptureUnsupported);
  }
  return hipSuccess;
}
static hipError_t streamWait(hipStream_t S) {
  std::lock_guard<std::recursive_mutex> G(Lock);
  if (capturing(S)) {
    S->Cap->Invalidated = true;
    return ret(hipErrorStreamCaptureUnsupported);
  }
  return ret(unsafeCall());
}
SIM_API hipError_t hipStreamSynchronize(hipStream_t S) { return streamWait(S); }
SIM_API hipError_t hipStreamQuery(hipStream_t S) { return streamWait(S); }

SIM_API hipError_t hipEventCreate(hipEvent_t *E) {
  *E = new ihipEvent_t;
  return hipSuccess;
}
SIM_API hipError_t hipEventDestroy(hipEvent_t E) {
  delete E;
  return hipSuccess;
}
SIM_API hipError_t hipEventRecord(hipEvent_t E, hipStream_t S) {
  std::lock_guard<std::recursive_mutex> G(Lock);
  E->Captured = capturing(S);
  return hipSuccess;
}
static hipError_t eventWait(hipEvent_t E) {
  std::lock_guard<std::recursive_mutex> G(Lock);
  if (E->Captured) {
    for (Capture *C : mine())
      C->Invalidated = true;
    return ret(hipErrorCapturedEvent);
  }
  return ret(unsafeCall());
}
SIM_API hipError_t hipEventSynchronize(hipEvent_t E) { return eventWait(E); }
SIM_API hipError_t hipEventQuery(hipEvent_t E) { return eventWait(E); }
SIM_API hipError_t hipStreamWaitEvent(hipStream_t S, hipEvent_t E, unsigned) {
  std::lock_guard<std::recursive_mutex> G(Lock);
  if (capturing(S) && !E->Captured) {
    S->Cap->Invalidated = true;
    return ret(hipErrorStreamCaptureIsolation);
  }
  return hipSuccess;
}

SIM_API hipError_t hipGraphGetNodes(hipGraph_t Graph, hipGraphNode_t *Nodes,
                                    size_t *N) {
  if (!Graph || !N)
    return ret(hipErrorInvalidValue);
  if (Nodes)
    for (size_t I = 0; I < *N && I < Graph->Nodes.size(); ++I)
      Nodes[I] = Graph->Nodes[I].get();
  *N = Graph->Nodes.size();
  return hipSuccess;
}
SIM_API hipError_t hipGraphNodeGetType(hipGraphNode_t Node,
                                       hipGraphNodeType *T) {
  if (!Node)
    return ret(hipErrorInvalidValue);
  *T = Node->Type;
  return hipSuccess;
}
SIM_API hipError_t hipGraphInstantiate(hipGraphExec_t *Exec, hipGraph_t Graph,
                                       hipGraphNode_t *, char *, size_t) {
  if (!Graph)
    return ret(hipErrorInvalidValue);
  *Exec = new hipGraphExec;
  for (auto &N : Graph->Nodes)
    (*Exec)->Ops.push_back(N->Run);
  return hipSuccess;
}
SIM_API hipError_t hipGraphLaunch(hipGraphExec_t Exec, hipStream_t S) {
  std::lock_guard<std::recursive_mutex> G(Lock);
  if (capturing(S)) {
    S->Cap->Invalidated = true;
    return ret(hipErrorStreamCaptureUnsupported);
  }
  for (auto &Op : Exec->Ops)
    Op();
  return hipSuccess;
}
SIM_API hipError_t hipGraphDestroy(hipGraph_t Graph) {
  delete Graph;
  return hipSuccess;
}
SIM_API hipError_t hipGraphExecDestroy(hipGraphExec_t Exec) {
  delete Exec;
  return hipSuccess;
}
