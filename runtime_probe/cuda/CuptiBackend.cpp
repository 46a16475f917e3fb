//===- CuptiBackend.cpp - The CUPTI subscriber
//-----------------------------===//
//
// Calls nest: cudaMalloc calls cuMemAlloc_v2. Only the outermost call of a
// thread becomes an event; a per-thread depth counter tells. Graph nodes
// created between its entry and exit (CUPTI's GRAPHNODE_CREATED resource
// callback, which fires for nodes made by stream capture) say whether the
// call's work went into a graph, and are counted per graph by type for the
// end-of-capture summary. The backend makes no CUDA call of its own inside
// a callback: stream kinds come from the stream-creation calls it watches,
// node counts from the node callbacks, error names from a table and
// cuGetErrorName (a runtime linked into this library would initialise
// itself inside the program's callbacks).
//
//===----------------------------------------------------------------------===//

#include "CuptiBackend.h"
#include "capture_probe/InProcess.h"
#include <atomic>
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti.h>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

namespace capture_probe {
namespace {

std::atomic<EventSink *> TheSink{nullptr};
ActiveCaptures Active;

struct ThreadState {
  int Depth = 0;
  uint64_t NodesCreated = 0;
  uint64_t NodesAtEntry = 0;
  int PendingMode = -1; // exchange-mode: the mode asked for, read at entry
};
thread_local ThreadState TS;

std::mutex StateLock;
std::map<uint64_t, bool> StreamNonBlocking;                // by stream
std::map<uint64_t, std::map<std::string, int>> GraphNodes; // by graph

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

/// cudaError_t names of the codes a capture produces, and the common ones.
const char *runtimeErrorName(int Code) {
  switch (Code) {
  case 1:
    return "cudaErrorInvalidValue";
  case 2:
    return "cudaErrorMemoryAllocation";
  case 3:
    return "cudaErrorInitializationError";
  case 4:
    return "cudaErrorCudartUnloading";
  case 98:
    return "cudaErrorInvalidDeviceFunction";
  case 100:
    return "cudaErrorNoDevice";
  case 101:
    return "cudaErrorInvalidDevice";
  case 400:
    return "cudaErrorInvalidResourceHandle";
  case 401:
    return "cudaErrorIllegalState";
  case 600:
    return "cudaErrorNotReady";
  case 700:
    return "cudaErrorIllegalAddress";
  case 719:
    return "cudaErrorLaunchFailure";
  case 801:
    return "cudaErrorNotSupported";
  case 900:
    return "cudaErrorStreamCaptureUnsupported";
  case 901:
    return "cudaErrorStreamCaptureInvalidated";
  case 902:
    return "cudaErrorStreamCaptureMerge";
  case 903:
    return "cudaErrorStreamCaptureUnmatched";
  case 904:
    return "cudaErrorStreamCaptureUnjoined";
  case 905:
    return "cudaErrorStreamCaptureIsolation";
  case 906:
    return "cudaErrorStreamCaptureImplicit";
  case 907:
    return "cudaErrorCapturedEvent";
  case 908:
    return "cudaErrorStreamCaptureWrongThread";
  case 999:
    return "cudaErrorUnknown";
  default:
    return nullptr;
  }
}

std::string resultName(CUpti_CallbackDomain Domain, int Result) {
  if (Domain == CUPTI_CB_DOMAIN_RUNTIME_API)
    if (const char *Name = runtimeErrorName(Result))
      return Name;
  // cuGetErrorName only reads a table; the numbers mostly agree.
  const char *Name = nullptr;
  if (cuGetErrorName(CUresult(Result), &Name) != CUDA_SUCCESS)
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
        Id ==
            CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_ptsz_v12030) {
      Mode = static_cast<const cudaStreamBeginCaptureToGraph_v12030_params *>(
                 Params)
                 ->mode;
      E.ToGraph = true;
    } else {
      Mode = static_cast<const cudaStreamBeginCapture_v10000_params *>(Params)
                 ->mode;
    }
  } else if (Id == CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph ||
             Id == CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph_ptsz) {
    Mode =
        static_cast<const cuStreamBeginCaptureToGraph_params *>(Params)->mode;
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
    auto *P =
        static_cast<const cudaThreadExchangeStreamCaptureMode_v10010_params *>(
            Params);
    return P->mode ? int(*P->mode) : -1;
  }
  auto *P =
      static_cast<const cuThreadExchangeStreamCaptureMode_params *>(Params);
  return P->mode ? int(*P->mode) : -1;
}

/// Remembers whether each stream is non-blocking, from its creation.
void noteStreamCreation(CUpti_CallbackDomain Domain, CUpti_CallbackId Id,
                        const void *Params) {
  void *const *Handle = nullptr;
  unsigned Flags = 0;
  if (Domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    if (Id == CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreate_v3020) {
      Handle = reinterpret_cast<void *const *>(
          static_cast<const cudaStreamCreate_v3020_params *>(Params)->pStream);
    } else if (Id == CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreateWithFlags_v5000) {
      auto *P =
          static_cast<const cudaStreamCreateWithFlags_v5000_params *>(Params);
      Handle = reinterpret_cast<void *const *>(P->pStream);
      Flags = P->flags;
    } else if (Id ==
               CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreateWithPriority_v5050) {
      auto *P = static_cast<const cudaStreamCreateWithPriority_v5050_params *>(
          Params);
      Handle = reinterpret_cast<void *const *>(P->pStream);
      Flags = P->flags;
    }
  } else if (Id == CUPTI_DRIVER_TRACE_CBID_cuStreamCreate) {
    auto *P = static_cast<const cuStreamCreate_params *>(Params);
    Handle = reinterpret_cast<void *const *>(P->phStream);
    Flags = P->Flags;
  } else if (Id == CUPTI_DRIVER_TRACE_CBID_cuStreamCreateWithPriority) {
    auto *P = static_cast<const cuStreamCreateWithPriority_params *>(Params);
    Handle = reinterpret_cast<void *const *>(P->phStream);
    Flags = P->flags;
  }
  if (!Handle || !*Handle)
    return;
  std::lock_guard<std::mutex> G(StateLock);
  // cudaStreamNonBlocking and CU_STREAM_NON_BLOCKING are both 1.
  StreamNonBlocking[uint64_t(uintptr_t(*Handle))] = (Flags & 1) != 0;
}

std::optional<bool> streamIsNonBlocking(uint64_t Stream) {
  std::lock_guard<std::mutex> G(StateLock);
  auto It = StreamNonBlocking.find(Stream);
  if (It == StreamNonBlocking.end())
    return std::nullopt;
  return It->second;
}

/// Driver calls the CUDA runtime library makes for itself (module loading
/// before a first launch, say) are not the program's calls.
bool madeByRuntimeLibrary(const std::vector<std::string> &Frames) {
  // captureFrames already left out the probe, CUPTI and the driver.
  return !Frames.empty() &&
         Frames.front().find("libcudart") != std::string::npos;
}

int returnValue(CUpti_CallbackDomain Domain, const CUpti_CallbackData *Data) {
  if (!Data->functionReturnValue)
    return 0;
  return Domain == CUPTI_CB_DOMAIN_RUNTIME_API
             ? int(*static_cast<const cudaError_t *>(Data->functionReturnValue))
             : int(*static_cast<const CUresult *>(Data->functionReturnValue));
}

void onApi(CUpti_CallbackDomain Domain, CUpti_CallbackId Id,
           const CUpti_CallbackData *Data) {
  if (Data->callbackSite == CUPTI_API_ENTER) {
    if (TS.Depth++ == 0) {
      TS.NodesAtEntry = TS.NodesCreated;
      TS.PendingMode =
          kindOf(Domain, Id) == EventKind::ExchangeMode && Data->functionParams
              ? exchangeModeAsked(Domain, Data->functionParams)
              : -1;
    }
    return;
  }
  --TS.Depth;
  int Result = returnValue(Domain, Data);
  if (Result == 0 && Data->functionParams)
    noteStreamCreation(Domain, Id, Data->functionParams);
  if (TS.Depth != 0)
    return; // nested inside another API call of this thread
  EventKind Kind = kindOf(Domain, Id);
  if (Kind == EventKind::Call && !Active.any())
    return;
  EventSink *Sink = TheSink.load();
  if (!Sink || (Kind != EventKind::Call && !Data->functionParams))
    return; // cudaDeviceSynchronize and friends have no parameters

  Event E;
  E.Kind = Kind;
  E.Api = Data->functionName ? Data->functionName : "?";
  E.Result = Result;
  if (E.Result != 0)
    E.ResultName = resultName(Domain, E.Result);
  E.NodesCreated = int(TS.NodesCreated - TS.NodesAtEntry);
  E.Frames = captureFrames();
  if (Kind == EventKind::Call && Domain == CUPTI_CB_DOMAIN_DRIVER_API &&
      madeByRuntimeLibrary(E.Frames))
    return;

  switch (Kind) {
  case EventKind::BeginCapture:
    readBegin(Domain, Id, Data->functionParams, E);
    E.NonBlocking = streamIsNonBlocking(*E.Stream);
    if (E.Result == 0)
      Active.begin(*E.Stream);
    break;
  case EventKind::EndCapture: {
    // cudaStreamEndCapture and cuStreamEndCapture: {stream, graph*}.
    auto *P =
        static_cast<const cuStreamEndCapture_params *>(Data->functionParams);
    E.Stream = uint64_t(uintptr_t(P->hStream));
    Active.end(*E.Stream);
    if (E.Result == 0 && P->phGraph && *P->phGraph) {
      E.GraphReturned = true;
      std::lock_guard<std::mutex> G(StateLock);
      auto It = GraphNodes.find(uint64_t(uintptr_t(*P->phGraph)));
      if (It != GraphNodes.end())
        E.GraphNodes = It->second;
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
  E.Seq = nextSequence();
  E.Thread = currentThreadId();
  Sink->write(E);
}

void onResource(CUpti_CallbackId Id, const CUpti_ResourceData *Data) {
  auto *G = Data
                ? static_cast<const CUpti_GraphData *>(Data->resourceDescriptor)
                : nullptr;
  if (!G)
    return;
  if (Id == CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED) {
    ++TS.NodesCreated;
    std::lock_guard<std::mutex> L(StateLock);
    ++GraphNodes[uint64_t(uintptr_t(G->graph))][nodeTypeName(G->nodeType)];
  } else if (Id == CUPTI_CBID_RESOURCE_GRAPH_DESTROY_STARTING) {
    std::lock_guard<std::mutex> L(StateLock);
    GraphNodes.erase(uint64_t(uintptr_t(G->graph)));
  }
}

void CUPTIAPI callback(void *, CUpti_CallbackDomain Domain, CUpti_CallbackId Id,
                       const void *Data) {
  if (!Data)
    return;
  if (Domain == CUPTI_CB_DOMAIN_RESOURCE)
    onResource(Id, static_cast<const CUpti_ResourceData *>(Data));
  else if (Domain == CUPTI_CB_DOMAIN_RUNTIME_API ||
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
  if (!Check(cuptiSubscribe(&Subscriber, callback, nullptr),
             "cuptiSubscribe") ||
      !Check(cuptiEnableDomain(1, Subscriber, CUPTI_CB_DOMAIN_RUNTIME_API),
             "enabling runtime API callbacks") ||
      !Check(cuptiEnableDomain(1, Subscriber, CUPTI_CB_DOMAIN_DRIVER_API),
             "enabling driver API callbacks") ||
      !Check(cuptiEnableCallback(1, Subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                                 CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED),
             "enabling graph-node callbacks") ||
      !Check(cuptiEnableCallback(1, Subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                                 CUPTI_CBID_RESOURCE_GRAPH_DESTROY_STARTING),
             "enabling graph callbacks")) {
    Started = false;
    return false;
  }
  return true;
}

} // namespace capture_probe
