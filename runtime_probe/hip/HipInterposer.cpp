//===- HipInterposer.cpp - The HIP backend: an LD_PRELOAD interposer ------===//
//
// No roctracer or rocprofiler is available to build against, so the HIP
// backend sits between the program and libamdhip64: it defines the HIP
// runtime calls that matter under capture, forwards each to the real one
// (dlsym RTLD_NEXT), and records an event for every call made while a
// capture is active. Work calls know their stream, so work put on a stream
// that is not capturing while a capture is active is recorded as creating
// no node (uncaptured work). `capture-probe run --backend hip` preloads it.
//
// It has not run against ROCm on AMD hardware (there is none here); it is
// tested against tests/hip's simulated runtime, built from the same headers.
//
//===----------------------------------------------------------------------===//

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__
#endif
#include "capture_probe/ApiCatalog.h"
#include "capture_probe/CallStack.h"
#include "capture_probe/EventLog.h"
#include "capture_probe/InProcess.h"
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <hip/hip_runtime_api.h>

using namespace capture_probe;

namespace {

ActiveCaptures Active;
thread_local int Depth = 0;

template <typename Fn> Fn real(const char *Name) {
  void *P = dlsym(RTLD_NEXT, Name);
  if (!P) {
    std::fprintf(stderr, "capture-probe: the HIP runtime has no '%s'\n", Name);
    std::abort();
  }
  return reinterpret_cast<Fn>(P);
}

std::string errorName(hipError_t E) {
  static auto *Name = reinterpret_cast<const char *(*)(hipError_t)>(
      dlsym(RTLD_NEXT, "hipGetErrorName"));
  const char *N = Name ? Name(E) : nullptr;
  return N ? N : "";
}

/// Depth-tracks the call (the runtime may call its own exported functions)
/// and builds its event.
struct Observed {
  explicit Observed(const char *Api) : Api(Api) { ++Depth; }
  ~Observed() { --Depth; }
  bool outermost() const { return Depth == 1; }

  hipError_t finish(hipError_t R, EventKind Kind = EventKind::Call,
                    Event *Prepared = nullptr) {
    if (!outermost() || (Kind == EventKind::Call && !Recording))
      return R;
    EventSink *S = processEventLog();
    if (!S)
      return R;
    Event E = Prepared ? *Prepared : Event();
    E.Seq = nextSequence();
    E.Thread = currentThreadId();
    E.Kind = Kind;
    E.Api = Api;
    E.Result = int(R);
    if (R != hipSuccess)
      E.ResultName = errorName(R);
    if (Stream && !E.Stream)
      E.Stream = Stream;
    if (Nodes && !E.NodesCreated)
      E.NodesCreated = Nodes;
    E.Frames = captureFrames();
    S->write(E);
    return R;
  }

  const char *Api;
  bool Recording = Active.any();
  std::optional<uint64_t> Stream;
  std::optional<int> Nodes;
};

uint64_t id(const void *P) { return uint64_t(uintptr_t(P)); }

/// A work call on \p S: it makes a node only if S itself is capturing.
void workOn(Observed &O, hipStream_t S) {
  O.Stream = id(S);
  if (O.Recording)
    O.Nodes = Active.contains(id(S)) ? 1 : 0;
}

const char *nodeTypeName(hipGraphNodeType T) {
  switch (T) {
  case hipGraphNodeTypeKernel:
    return "kernel";
  case hipGraphNodeTypeMemcpy:
    return "memcpy";
  case hipGraphNodeTypeMemset:
    return "memset";
  case hipGraphNodeTypeHost:
    return "host";
  case hipGraphNodeTypeGraph:
    return "graph";
  case hipGraphNodeTypeEmpty:
    return "empty";
  case hipGraphNodeTypeWaitEvent:
    return "wait-event";
  case hipGraphNodeTypeEventRecord:
    return "event-record";
  default:
    return "other";
  }
}

} // namespace

// The real function, typed from the parameter list (some HIP calls are
// overloaded in C++, so decltype(&hipMalloc) would be ambiguous).
#define HIP_REAL(name, params)                                                 \
  using name##_fn = hipError_t(*) params;                                      \
  static auto Real = real<name##_fn>(#name)

// Plain calls: forward and record.
#define INTERPOSE(name, params, args)                                          \
  extern "C" hipError_t name params {                                          \
    HIP_REAL(name, params);                                                    \
    Observed O(#name);                                                         \
    return O.finish(Real args);                                                \
  }
// Calls that put work on a stream.
#define INTERPOSE_WORK(name, stream, params, args)                             \
  extern "C" hipError_t name params {                                          \
    HIP_REAL(name, params);                                                    \
    Observed O(#name);                                                         \
    workOn(O, stream);                                                         \
    return O.finish(Real args);                                                \
  }
// Calls with a stream that is not work (synchronise, query).
#define INTERPOSE_STREAM(name, stream, params, args)                           \
  extern "C" hipError_t name params {                                          \
    HIP_REAL(name, params);                                                    \
    Observed O(#name);                                                         \
    O.Stream = id(stream);                                                     \
    return O.finish(Real args);                                                \
  }

INTERPOSE(hipMalloc, (void **p, size_t n), (p, n))
INTERPOSE(hipFree, (void *p), (p))
INTERPOSE(hipHostMalloc, (void **p, size_t n, unsigned f), (p, n, f))
INTERPOSE(hipHostFree, (void *p), (p))
INTERPOSE(hipMallocManaged, (void **p, size_t n, unsigned f), (p, n, f))
INTERPOSE(hipDeviceSynchronize, (void), ())
INTERPOSE(hipEventSynchronize, (hipEvent_t e), (e))
INTERPOSE(hipEventQuery, (hipEvent_t e), (e))
INTERPOSE_STREAM(hipStreamSynchronize, s, (hipStream_t s), (s))
INTERPOSE_STREAM(hipStreamQuery, s, (hipStream_t s), (s))
INTERPOSE_STREAM(hipEventRecord, s, (hipEvent_t e, hipStream_t s), (e, s))
INTERPOSE_STREAM(hipStreamWaitEvent, s,
                 (hipStream_t s, hipEvent_t e, unsigned f), (s, e, f))
INTERPOSE_STREAM(hipMallocAsync, s, (void **p, size_t n, hipStream_t s),
                 (p, n, s))
INTERPOSE_STREAM(hipFreeAsync, s, (void *p, hipStream_t s), (p, s))
INTERPOSE_WORK(hipMemcpy, nullptr,
               (void *d, const void *s, size_t n, hipMemcpyKind k),
               (d, s, n, k))
INTERPOSE_WORK(hipMemset, nullptr, (void *d, int v, size_t n), (d, v, n))
INTERPOSE_WORK(hipMemcpyAsync, st,
               (void *d, const void *s, size_t n, hipMemcpyKind k,
                hipStream_t st),
               (d, s, n, k, st))
INTERPOSE_WORK(hipMemsetAsync, st, (void *d, int v, size_t n, hipStream_t st),
               (d, v, n, st))
INTERPOSE_WORK(hipLaunchKernel, st,
               (const void *f, dim3 g, dim3 b, void **a, size_t sh,
                hipStream_t st),
               (f, g, b, a, sh, st))
INTERPOSE_WORK(hipLaunchHostFunc, st, (hipStream_t st, hipHostFn_t f, void *u),
               (st, f, u))
INTERPOSE_WORK(hipGraphLaunch, st, (hipGraphExec_t e, hipStream_t st), (e, st))

extern "C" hipError_t hipStreamBeginCapture(hipStream_t S,
                                            hipStreamCaptureMode M) {
  HIP_REAL(hipStreamBeginCapture, (hipStream_t, hipStreamCaptureMode));
  Observed O("hipStreamBeginCapture");
  hipError_t R = Real(S, M);
  Event E;
  E.Stream = id(S);
  E.Mode = modeFromEnum(int(M)).value_or(CaptureMode::Global);
  static auto Flags =
      real<hipError_t (*)(hipStream_t, unsigned *)>("hipStreamGetFlags");
  unsigned F = 0;
  if (S && Flags(S, &F) == hipSuccess)
    E.NonBlocking = (F & hipStreamNonBlocking) != 0;
  if (R == hipSuccess && O.outermost())
    Active.begin(id(S));
  return O.finish(R, EventKind::BeginCapture, &E);
}

extern "C" hipError_t hipStreamEndCapture(hipStream_t S, hipGraph_t *G) {
  HIP_REAL(hipStreamEndCapture, (hipStream_t, hipGraph_t *));
  Observed O("hipStreamEndCapture");
  hipError_t R = Real(S, G);
  Event E;
  E.Stream = id(S);
  if (O.outermost())
    Active.end(id(S));
  if (R == hipSuccess && G && *G) {
    E.GraphReturned = true;
    static auto GetNodes =
        real<hipError_t (*)(hipGraph_t, hipGraphNode_t *, size_t *)>(
            "hipGraphGetNodes");
    static auto GetType =
        real<hipError_t (*)(hipGraphNode_t, hipGraphNodeType *)>(
            "hipGraphNodeGetType");
    size_t N = 0;
    if (GetNodes(*G, nullptr, &N) == hipSuccess) {
      std::vector<hipGraphNode_t> Nodes(N);
      if (!N || GetNodes(*G, Nodes.data(), &N) == hipSuccess)
        for (hipGraphNode_t Node : Nodes) {
          hipGraphNodeType T;
          if (GetType(Node, &T) == hipSuccess)
            ++E.GraphNodes[nodeTypeName(T)];
        }
    }
  }
  return O.finish(R, EventKind::EndCapture, &E);
}

extern "C" hipError_t
hipThreadExchangeStreamCaptureMode(hipStreamCaptureMode *M) {
  HIP_REAL(hipThreadExchangeStreamCaptureMode, (hipStreamCaptureMode *));
  Observed O("hipThreadExchangeStreamCaptureMode");
  Event E;
  std::optional<CaptureMode> Asked =
      M ? modeFromEnum(int(*M)) : std::optional<CaptureMode>();
  hipError_t R = Real(M);
  if (!Asked)
    return R;
  E.Mode = *Asked;
  return O.finish(R, EventKind::ExchangeMode, &E);
}
