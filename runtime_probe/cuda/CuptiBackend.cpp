//===- CuptiBackend.cpp - The CUPTI subscriber -----------------------------===//
//
// Calls nest: cudaMalloc calls cuMemAlloc_v2. Only the outermost call of a
// thread becomes an event; a per-thread depth counter tells. Graph nodes
// created between its entry and exit (CUPTI's GRAPHNODE_CREATED resource
// callback, which fires for nodes made by stream capture) say whether the
// call's work went into a graph. The backend's own queries (stream flags,
// graph nodes) are made with a per-thread flag set, so they are not seen.
//
//===----------------------------------------------------------------------===//

#include "CuptiBackend.h"
#include "capture_probe/InProcess.h"
#include <atomic>
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti.h>
#include <vector>

namespace capture_probe {
namespace {

std::atomic<EventSink *> TheSink{nullptr};
ActiveCaptures Active;

struct ThreadState {
  int Depth = 0;
  bool Internal = false;  // our own CUDA calls
  uint64_t NodesCreated = 0;
  uint64_t NodesAtEntry = 0;
  int PendingMode = -1;   // exchange-mode: the mode asked for, read at entry
};
thread_local ThreadState TS;

struct InternalCall {
  InternalCall() { TS.Internal = true; }
  ~InternalCall() { TS.Internal = false; }
};

const char *nodeTypeName(CUgraphNodeType T) {
  switch (T) {
  case CU_GRAPH_NODE_TYPE_KERNEL:
    return "kernel";
  case CU_GRAPH_NODE_TYPE_MEMCPY:
    return "memcpy";
  case CU_GRAPH_NODE_TYPE_MEMSET:
    return "memset";
  case CU_GRAPH_NODE_TYPE_HOST:
    return "host";
  case CU_GRAPH_NODE_TYPE_GRAPH:
    return "graph";
  case CU_GRAPH_NODE_TYPE_EMPTY:
    return "empty";
  case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
    return "wait-event";
  case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
    return "event-record";
  case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
    return "ext-semaphore-signal";
  case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
    return "ext-semaphore-wait";
  case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
    return "mem-alloc";
  case CU_GRAPH_NODE_TYPE_MEM_FREE:
    return "mem-free";
  case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
    return "batch-mem-op";
  case CU_GRAPH_NODE_TYPE_CONDITIONAL:
    return "conditional";
  default:
    return "other";
  }
}

void countGraphNodes(CUgraph G, Event &E) {
  InternalCall Guard;
  size_t N = 0;
  if (cuGraphGetNodes(G, nullptr, &N) != CUDA_SUCCESS)
    return;
  std::vector<CUgraphNode> Nodes(N);
  if (N && cuGraphGetNodes(G, Nodes.data(), &N) != CUDA_SUCCESS)
    return;
  for (CUgraphNode Node : Nodes) {
    CUgraphNodeType T;
    if (cuGraphNodeGetType(Node, &T) == CUDA_SUCCESS)
      ++E.GraphNodes[nodeTypeName(T)];
  }
}

std::optional<bool> streamIsNonBlocking(CUstream S) {
  InternalCall Guard;
  unsigned Flags = 0;
  if (cuStreamGetFlags(S, &Flags) != CUDA_SUCCESS)
    return std::nullopt;
  return (Flags & CU_STREAM_NON_BLOCKING) != 0;
}

std::string resultName(CUpti_CallbackDomain Domain, int Result) {
  const char *Name = nullptr;
  if (Domain == CUPTI_CB_DOMAIN_RUNTIME_API)
    Name = cudaGetErrorName(cudaError_t(Result));
  else if (cuGetErrorName(CUresult(Result), &Name) != CUDA_SUCCESS)
    Name = nullptr;
  return Name ? Name : "";
}

/// The begin/end/exchange calls of both APIs, with where their parameters
/// are. Returns Call for everything else.
EventKind kindOf(CUpti_CallbackDomain Domain, CUpti_CallbackId Id) {
  if (Domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    switch (Id) {
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_v10000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_ptsz_v10000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_v12030:
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_ptsz_v12030:
      return EventKind::BeginCapture;
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_v10000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_ptsz_v10000:
      return EventKind::EndCapture;
    case CUPTI_RUNTIME_TRACE_CBID_cudaThreadExchangeStreamCaptureMode_v10010:
      return EventKind::ExchangeMode;
    default:
      return EventKind::Call;
    }
  }
  switch (Id) {
  case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph_ptsz:
    return EventKind::BeginCapture;
  case CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz:
    return EventKind::EndCapture;
  case CUPTI_DRIVER_TRACE_CBID_cuThreadExchangeStreamCaptureMode:
    return EventKind::ExchangeMode;
  default:
    return EventKind::Call;
  }
}

/// Stream, mode and to-graph of a begin call. Every begin's parameter
/// struct starts with the stream; the mode's place differs.
void readBegin(CUpti_CallbackDomain Domain, CUpti_CallbackId Id,
               const void *Params, Event &E) {
  E.Stream = uint64_t(uintptr_t(*static_cast<void *const *>(Params)));
  int Mode = 0; // cuStreamBeginCapture (v1) has no mode: global
  if (Domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    if (Id == CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_v12030 ||
        Id == CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_ptsz_v12030) {
      Mode = static_cast<const cudaStreamBeginCaptureToGraph_v12030_params *>(
                 Params)->mode;
      E.ToGraph = true;
    } else {
      Mode = static_cast<const cudaStreamBeginCapture_v10000_params *>(Params)
                 ->mode;
    }
  } else if (Id == CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph ||
             Id == CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph_ptsz) {
    Mode = static_cast<const cuStreamBeginCaptureToGraph_params *>(Params)->mode;
    E.ToGraph = true;
  } else if (Id == CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2 ||
             Id == CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz) {
    Mode = static_cast<const cuStreamBeginCapture_v2_params *>(Params)->mode;
  }
  E.Mode = modeFromEnum(Mode).value_or(CaptureMode::Global);
}

int exchangeModeAsked(CUpti_CallbackDomain Domain, const void *Params) {
  // Read at entry: at exit the pointer holds the previous mode.
  if (Domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    auto *P = static_cast<const cudaThreadExchangeStreamCaptureMode_v10010_params *>(
        Params);
    return P->mode ? int(*P->mode) : -1;
  }
  auto *P = static_cast<const cuThreadExchangeStreamCaptureMode_params *>(Params);
  return P->mode ? int(*P->mode) : -1;
}

void onApi(CUpti_CallbackDomain Domain, CUpti_CallbackId Id,
           const CUpti_CallbackData *Data) {
  if (Data->callbackSite == CUPTI_API_ENTER) {
    if (TS.Depth++ == 0) {
      TS.NodesAtEntry = TS.NodesCreated;
      TS.PendingMode = kindOf(Domain, Id) == EventKind::ExchangeMode
                           ? exchangeModeAsked(Domain, Data->functionParams)
                           : -1;
    }
    return;
  }
  if (--TS.Depth != 0)
    return; // nested inside another API call of this thread
  EventKind Kind = kindOf(Domain, Id);
  if (Kind == EventKind::Call && !Active.any())
    return;
  EventSink *Sink = TheSink.load();
  if (!Sink)
    return;

  Event E;
  E.Seq = nextSequence();
  E.Thread = currentThreadId();
  E.Kind = Kind;
  E.Api = Data->functionName ? Data->functionName : "?";
  E.Result = Domain == CUPTI_CB_DOMAIN_RUNTIME_API
                 ? int(*static_cast<const cudaError_t *>(Data->functionReturnValue))
                 : int(*static_cast<const CUresult *>(Data->functionReturnValue));
  if (E.Result != 0)
    E.ResultName = resultName(Domain, E.Result);
  E.NodesCreated = int(TS.NodesCreated - TS.NodesAtEntry);

  switch (Kind) {
  case EventKind::BeginCapture:
    readBegin(Domain, Id, Data->functionParams, E);
    E.NonBlocking = streamIsNonBlocking(CUstream(uintptr_t(*E.Stream)));
    if (E.Result == 0)
      Active.begin(*E.Stream);
    break;
  case EventKind::EndCapture: {
    // cudaStreamEndCapture and cuStreamEndCapture: {stream, graph*}.
    auto *P = static_cast<const cuStreamEndCapture_params *>(Data->functionParams);
    E.Stream = uint64_t(uintptr_t(P->hStream));
    Active.end(*E.Stream);
    if (E.Result == 0 && P->phGraph && *P->phGraph) {
      E.GraphReturned = true;
      countGraphNodes(*P->phGraph, E);
    }
    break;
  }
  case EventKind::ExchangeMode:
    if (auto M = modeFromEnum(TS.PendingMode))
      E.Mode = *M;
    else
      return;
    break;
  case EventKind::Call:
    break;
  }
  E.Frames = captureFrames();
  Sink->write(E);
}

void CUPTIAPI callback(void *, CUpti_CallbackDomain Domain,
                       CUpti_CallbackId Id, const void *Data) {
  if (TS.Internal)
    return;
  if (Domain == CUPTI_CB_DOMAIN_RESOURCE) {
    if (Id == CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED)
      ++TS.NodesCreated;
    return;
  }
  if (Domain == CUPTI_CB_DOMAIN_RUNTIME_API ||
      Domain == CUPTI_CB_DOMAIN_DRIVER_API)
    onApi(Domain, Id, static_cast<const CUpti_CallbackData *>(Data));
}

} // namespace

void setCuptiSink(EventSink *Sink) { TheSink.store(Sink); }

bool startCupti(EventSink *Sink, std::string &Error) {
  static std::atomic<bool> Started{false};
  setCuptiSink(Sink);
  if (Started.exchange(true))
    return true;
  CUpti_SubscriberHandle Subscriber;
  auto Check = [&](CUptiResult R, const char *What) {
    if (R == CUPTI_SUCCESS)
      return true;
    const char *Msg = nullptr;
    cuptiGetResultString(R, &Msg);
    Error = std::string(What) + ": " + (Msg ? Msg : "unknown CUPTI error");
    return false;
  };
  if (!Check(cuptiSubscribe(&Subscriber, callback, nullptr), "cuptiSubscribe") ||
      !Check(cuptiEnableDomain(1, Subscriber, CUPTI_CB_DOMAIN_RUNTIME_API),
             "enabling runtime API callbacks") ||
      !Check(cuptiEnableDomain(1, Subscriber, CUPTI_CB_DOMAIN_DRIVER_API),
             "enabling driver API callbacks") ||
      !Check(cuptiEnableCallback(1, Subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                                 CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED),
             "enabling graph-node callbacks")) {
    Started = false;
    return false;
  }
  return true;
}

} // namespace capture_probe
