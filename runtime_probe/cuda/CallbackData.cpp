//===- CallbackData.cpp - What a CUPTI API callback's id and data say -----===//
//
// Pure readings of CUPTI's callback ids and parameter structs, in both
// APIs: which calls begin and end captures, switch modes, instantiate,
// launch, allocate or free; where their stream, mode, graph and event are.
// No state and no CUDA calls: CuptiBackend.cpp acts on what these say.
//
//===----------------------------------------------------------------------===//

#include "CallbackData.h"
#include <cstring>
#include <cuda_runtime_api.h>

namespace capture_probe {

/// The probe's name of a graph node type (the report's "kernel", "memcpy").
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
  // Both to-graph parameter structs are {stream, graph, ...}.
  if (E.ToGraph)
    E.Graph = uint64_t(uintptr_t(static_cast<void *const *>(Params)[1]));
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

/// Driver calls that only look things up (kernels, functions, attributes,
/// entry points, a graph's nodes and their parameters): the CUDA runtime
/// makes them around its launches, and with the static runtime its frames
/// are the program's, so madeByRuntimeLibrary cannot tell; the probe makes
/// them itself to read graphs. Nothing they do matters to a capture. Never
/// events, and their callbacks are off (skipUnneededCallbacks).
bool isLookup(const char *Name) {
  if (!Name || Name[0] != 'c' || Name[1] != 'u')
    return false;
  // cuGraphGetNodes, cuGraphNodeGetType, cuGraphKernelNodeGetParams, ...
  // (not cuGraphics*, the graphics interoperability calls).
  if (std::strncmp(Name, "cuGraph", 7) == 0 &&
      std::strncmp(Name, "cuGraphics", 10) != 0 && std::strstr(Name, "Get"))
    return true;
  for (const char *P :
       {"cuKernelGet", "cuLibraryGet", "cuLibraryLoad", "cuModuleGet",
        "cuFuncGet", "cuGetProcAddress", "cuCtxGet", "cuDeviceGet",
        "cuDriverGet", "cuGetErrorName", "cuGetErrorString",
        "cuPointerGetAttribute", "cuStreamGetCaptureInfo",
        "cuStreamIsCapturing", "cuStreamGetCtx", "cuStreamGetFlags",
        "cuStreamGetPriority", "cuStreamGetId", "cuStreamGetDevice"})
    if (std::strncmp(Name, P, std::strlen(P)) == 0)
      return true;
  return false;
}

/// The call's result at its exit callback: cudaError_t or CUresult.
int returnValue(CUpti_CallbackDomain Domain, const CUpti_CallbackData *Data) {
  if (!Data->functionReturnValue)
    return 0;
  return Domain == CUPTI_CB_DOMAIN_RUNTIME_API
             ? int(*static_cast<const cudaError_t *>(Data->functionReturnValue))
             : int(*static_cast<const CUresult *>(Data->functionReturnValue));
}

/// Which part of the lifecycle runtime call \p Id is, if any.
static Lifecycle runtimeLifecycleOf(CUpti_CallbackId Id) {
  switch (Id) {
  case CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiate_v10000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiate_v12000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiateWithFlags_v11040:
  case CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiateWithParams_v12000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiateWithParams_ptsz_v12000:
    return Lifecycle::Instantiate;
  case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000:
    return Lifecycle::Launch;
  case CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecUpdate_v10020:
    return Lifecycle::Update;
  case CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecDestroy_v10000:
    return Lifecycle::ExecDestroy;
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060:
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000:
  // CUDA 13's <<<>>> launch (the kernel handle first, as cudaLaunchKernel's
  // host stub).
  case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000:
  case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000:
    return Lifecycle::Kernel;
  case CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaMallocAsync_v11020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaMallocAsync_ptsz_v11020:
    return Lifecycle::Alloc;
  case CUPTI_RUNTIME_TRACE_CBID_cudaFree_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaFreeAsync_v11020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaFreeAsync_ptsz_v11020:
    return Lifecycle::Free;
  default:
    return Lifecycle::None;
  }
}

/// Which part of the lifecycle driver call \p Id is, if any.
static Lifecycle driverLifecycleOf(CUpti_CallbackId Id) {
  switch (Id) {
  case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate:
  case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate_v2:
  case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags:
  case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams:
  case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams_ptsz:
    return Lifecycle::Instantiate;
  case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch:
  case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz:
    return Lifecycle::Launch;
  case CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate:
  case CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2:
    return Lifecycle::Update;
  case CUPTI_DRIVER_TRACE_CBID_cuGraphExecDestroy:
    return Lifecycle::ExecDestroy;
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
    return Lifecycle::Kernel;
  case CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2:
  case CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync:
  case CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync_ptsz:
    return Lifecycle::Alloc;
  case CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2:
  case CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync:
  case CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync_ptsz:
    return Lifecycle::Free;
  default:
    return Lifecycle::None;
  }
}

Lifecycle lifecycleOf(CUpti_CallbackDomain Domain, CUpti_CallbackId Id) {
  return Domain == CUPTI_CB_DOMAIN_RUNTIME_API ? runtimeLifecycleOf(Id)
                                               : driverLifecycleOf(Id);
}

/// Whether a graph call may change a graph's nodes (\p Rest: its name past
/// "cudaGraph" or "cuGraph"): all but those that instantiate, launch,
/// upload, clone or only read. One too many costs a walk; one missed would
/// leave stale addresses.
bool mayChangeGraph(const char *Rest) {
  for (const char *P :
       {"Exec", "Instantiate", "Launch", "Upload", "Clone", "DebugDotPrint"})
    if (std::strncmp(Rest, P, std::strlen(P)) == 0)
      return false;
  return !std::strstr(Rest, "Get");
}

/// cudaEventRecord / cudaStreamWaitEvent and their driver twins: which
/// stream and event (for naming the streams a capture forked and never
/// joined). Returns false for other calls.
bool readEventCall(CUpti_CallbackDomain Domain, CUpti_CallbackId Id,
                   const void *Params, Event &E) {
  auto *P = static_cast<void *const *>(Params);
  bool Record = false, Wait = false;
  if (Domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    Record =
        Id == CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_v3020 ||
        Id == CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_ptsz_v7000 ||
        Id == CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_v11010 ||
        Id == CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_ptsz_v11010;
    Wait = Id == CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_v3020 ||
           Id == CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_ptsz_v7000;
  } else {
    Record = Id == CUPTI_DRIVER_TRACE_CBID_cuEventRecord ||
             Id == CUPTI_DRIVER_TRACE_CBID_cuEventRecord_ptsz ||
             Id == CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags ||
             Id == CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags_ptsz;
    Wait = Id == CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent ||
           Id == CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent_ptsz;
  }
  if (!P || !(Record || Wait))
    return false;
  // Records are {event, stream, ...}; waits {stream, event, ...}.
  E.CudaEvent = uint64_t(uintptr_t(P[Record ? 0 : 1]));
  E.Stream = uint64_t(uintptr_t(P[Record ? 1 : 0]));
  return true;
}

/// The kernel a launch call launches: its first parameter, or its second
/// for the launches that take a configuration first.
uint64_t launchedKernel(CUpti_CallbackDomain Domain, CUpti_CallbackId Id,
                        const void *Params) {
  auto *P = static_cast<void *const *>(Params);
  bool ConfigFirst =
      Domain == CUPTI_CB_DOMAIN_RUNTIME_API
          ? (Id == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060 ||
             Id == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060)
          : (Id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx ||
             Id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz);
  return uint64_t(uintptr_t(P[ConfigFirst ? 1 : 0]));
}

} // namespace capture_probe
