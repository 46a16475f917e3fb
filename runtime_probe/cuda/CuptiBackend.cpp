//===- CuptiBackend.cpp - The CUPTI subscriber ----------------------------===//
//
// Calls nest: cudaMalloc calls cuMemAlloc_v2. Only the outermost call of a
// thread becomes an event; a per-thread depth counter tells. Graph nodes
// created between its entry and exit (CUPTI's GRAPHNODE_CREATED resource
// callback, which fires for nodes made by stream capture) say whether the
// call's work went into a graph. The node type is not yet set when that
// callback fires, so a graph's nodes are typed when its capture has ended
// (and its kernels counted when it is instantiated), with driver calls made
// from the exit callback of the end or instantiate call and ignored by the
// probe itself (ProbeCall). The graph lifecycle (instantiations, launches,
// updates, destruction) is followed whatever is capturing: launches are
// counted in memory, the first of each executable graph recorded; these
// records carry no stack, like clean captured work. What each callback id and
// parameter struct means is read by CallbackData.h. Otherwise the backend makes
// no CUDA call of its own: stream kinds come from the stream-creation calls it
// watches, error names from a table and cuGetErrorName (a runtime linked into
// this library would initialise itself inside the program's callbacks).
// Kernel launches also come as callbacks, but from the probe's wrappers of
// the driver's launch entry points (LaunchInterposer.h, EntryPointScan.h),
// written as CUPTI's by LaunchCallbackData.h; CUPTI's own launch callbacks
// go off once the runtime's launches reach the wrappers. Without CUPTI
// (CAPTURE_PROBE_CALLS=wrappers, capture-probe run's default) every
// other driver call comes through DriverInterposer.h's wrappers as a
// driver-domain callback, and the nodes a call made are counted by asking
// the driver (onWrapped).
//
//===----------------------------------------------------------------------===//

#include "CuptiBackend.h"
#include "CallbackData.h"
#include "DlsymInterposer.h"
#include "DriverInterposer.h"
#include "EntryPointScan.h"
#include "GraphInspection.h"
#include "LaunchCallbackData.h"
#include "LaunchInterposer.h"
#include "capture_probe/AllocationHolders.h"
#include "capture_probe/ApiCatalog.h"
#include "capture_probe/CallStack.h"
#include "capture_probe/EventFolding.h"
#include "capture_probe/GraphBuffers.h"
#include "capture_probe/InProcess.h"
#include "capture_probe/PythonStack.h"
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti.h>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

namespace capture_probe {
namespace {

// The backend's state is reached from every driver call the program makes,
// also from those made while the process exits, after static objects were
// destroyed (the CUDA runtime's own exit handler frees and unloads; without
// CUPTI the wrappers see those calls): what a callback can reach is
// allocated once and never destroyed.
std::atomic<EventSink *> TheSink{nullptr};
ActiveCaptures &Active = *new ActiveCaptures;
FirstCaptures &First = *new FirstCaptures;

struct ThreadState {
  int Depth = 0;
  uint64_t NodesCreated = 0;
  uint64_t NodesAtEntry = 0;
  int PendingMode = -1;   // exchange-mode: the mode asked for, read at entry
  bool InProbe = false;   // the probe's own driver calls: not the program's
  int FallbackWindow = 0; // work calls still to record after a failed capture
  int OwnCaptures = 0;    // captures this thread began and has not ended
  /// The thread's outermost call in progress (while Depth > 0).
  CUpti_CallbackDomain OuterDomain = CUPTI_CB_DOMAIN_INVALID;
  CUpti_CallbackId OuterId = 0;
  /// Without CUPTI (CallsThroughWrappers): whether the call in progress
  /// came through a copy the runtime holds, and the nodes of the graphs
  /// being captured at its entry (counting from then, else -1).
  bool ByRuntime = false;
  const void *Caller = nullptr; // where the runtime made the call
  int64_t CapturingNodesAtEntry = -1;
};
thread_local ThreadState TS;

/// The thread's held clean captured call (EventFolding.h): written before
/// any other event of the thread, and when the thread ends.
thread_local CallFolder Folder;

/// CAPTURE_PROBE_EMPTY_CALLBACKS=1: every callback returns at once, to
/// measure what CUPTI's callbacks cost by themselves (the report is empty).
bool EmptyCallbacks = false;

/// The subscriber, and which of CUPTI's launch callbacks the wrappers
/// replace (LaunchCallbackData.h): switched off once the runtime's launches
/// reach the wrappers.
CUpti_SubscriberHandle Subscriber = nullptr;
LaunchCallbacksOff LaunchOff = LaunchCallbacksOff::Runtime;
std::atomic<bool> RuntimeLaunchesOff{false}, DriverLaunchesOff{false};
/// The runtime's launch entry points found already fetched at the start.
EntryPointScan &StartScan = *new EntryPointScan;
/// For debugging: CAPTURE_PROBE_WRAP_RANGE=LO-HI keeps of \p Functions only
/// those of places LO to HI in wrappableDriverFunctions (to bisect for a
/// wrapper that misbehaves).
static void keepWrapRange(std::vector<KnownEntryPoint> &Functions) {
  const char *Range = std::getenv("CAPTURE_PROBE_WRAP_RANGE");
  unsigned Lo = 0, Hi = 0;
  if (!Range || std::sscanf(Range, "%u-%u", &Lo, &Hi) != 2)
    return;
  const auto &All = wrappableDriverFunctions();
  std::vector<bool> Keep(CUPTI_DRIVER_TRACE_CBID_SIZE, false);
  for (unsigned I = Lo; I <= Hi && I < All.size(); ++I)
    Keep[All[I].Id] = true;
  Functions.erase(std::remove_if(Functions.begin(), Functions.end(),
                                 [&](const KnownEntryPoint &K) {
                                   return !Keep[K.DriverId];
                                 }),
                  Functions.end());
}

/// CAPTURE_PROBE_CALLS=wrappers: CUPTI is never subscribed; every driver
/// call the runtime or the program makes reaches the backend through the
/// probe's wrappers (DriverInterposer.h), graph nodes are counted by asking
/// the driver. KnownEntries (sorted by address) are the entry points wrapped,
/// for those a later cuGetProcAddress hands out.
bool CallsThroughWrappers = false;
std::vector<KnownEntryPoint> &KnownEntries = *new std::vector<KnownEntryPoint>;
/// The modules scanned so far, and the dynamic linker's generation then: a
/// library loaded later (Triton's launchers) is scanned before the next
/// capture begins. What later scans redirected, for the profile.
ScannedModules &Scanned = *new ScannedModules;
std::atomic<uint64_t> ScannedGeneration{0};
std::mutex ScanLock;
std::atomic<unsigned> LaterModules{0}, LaterCopies{0};

/// Marks the probe's own driver calls, so that their callbacks are ignored.
struct ProbeCall {
  ProbeCall() { TS.InProbe = true; }
  ~ProbeCall() { TS.InProbe = false; }
};

/// How many outermost calls of a thread are watched for the same work
/// running eagerly after its capture failed (a silent fallback).
constexpr int FallbackCalls = 256;

std::mutex StateLock;
std::map<uint64_t, bool> &StreamNonBlocking = // by stream
    *new std::map<uint64_t, bool>;
std::map<uint64_t, uint64_t> &CaptureTarget = // stream -> graph (to-graph)
    *new std::map<uint64_t, uint64_t>;
/// The graphs captured lately: their kernel nodes and the device addresses
/// their nodes use, read in the walk made when the capture ended, so that
/// instantiating one need not walk it again. The addresses are dropped when
/// the program may have changed the graph (dropGraphAddresses), and the
/// graph is walked again when it is instantiated.
struct CapturedGraph {
  uint64_t Kernels = 0;
  std::shared_ptr<const GraphBuffers> Addresses;
};
std::unordered_map<uint64_t, CapturedGraph> &CapturedGraphs =
    *new std::unordered_map<uint64_t, CapturedGraph>;

/// CAPTURE_PROBE_PROFILE=1: where the probe spends its time, on stderr at
/// exit (stacks, graph inspection, Python frames, writing).
struct Profile {
  bool On = false;
  std::atomic<uint64_t> Ns[4] = {};
  std::atomic<uint64_t> Events{0};
};
Profile Prof;
enum Phase { PhaseStack, PhaseGraph, PhasePython, PhaseWrite };

/// With CAPTURE_PROBE_PROFILE=1, the API callbacks CUPTI delivered (entries,
/// the probe's own calls included), by id: which calls the callbacks cost.
std::atomic<uint64_t> RuntimeCallbacks[CUPTI_RUNTIME_TRACE_CBID_SIZE];
std::atomic<uint64_t> DriverCallbacks[CUPTI_DRIVER_TRACE_CBID_SIZE];

void countCallback(CUpti_CallbackDomain Domain, CUpti_CallbackId Id) {
  if (Domain == CUPTI_CB_DOMAIN_RUNTIME_API &&
      Id < CUPTI_RUNTIME_TRACE_CBID_SIZE)
    RuntimeCallbacks[Id].fetch_add(1, std::memory_order_relaxed);
  else if (Domain == CUPTI_CB_DOMAIN_DRIVER_API &&
           Id < CUPTI_DRIVER_TRACE_CBID_SIZE)
    DriverCallbacks[Id].fetch_add(1, std::memory_order_relaxed);
}

/// The total and the most frequent callbacks, on stderr.
void printCallbackCounts() {
  std::vector<std::pair<uint64_t, std::string>> Counts;
  uint64_t Total = 0;
  auto Add = [&](CUpti_CallbackDomain Domain, CUpti_CallbackId Id, uint64_t N) {
    if (!N)
      return;
    Total += N;
    const char *Name = nullptr;
    if (cuptiGetCallbackName(Domain, Id, &Name) != CUPTI_SUCCESS || !Name)
      Name = "?";
    Counts.emplace_back(N, Name);
  };
  for (CUpti_CallbackId Id = 0; Id < CUPTI_RUNTIME_TRACE_CBID_SIZE; ++Id)
    Add(CUPTI_CB_DOMAIN_RUNTIME_API, Id, RuntimeCallbacks[Id].load());
  for (CUpti_CallbackId Id = 0; Id < CUPTI_DRIVER_TRACE_CBID_SIZE; ++Id)
    Add(CUPTI_CB_DOMAIN_DRIVER_API, Id, DriverCallbacks[Id].load());
  std::sort(Counts.rbegin(), Counts.rend());
  std::fprintf(stderr, "capture-probe profile: %llu API calls seen by CUPTI",
               (unsigned long long)Total);
  for (size_t I = 0; I < Counts.size() && I < 12; ++I)
    std::fprintf(stderr, "%s %s %llu", I ? "," : ";", Counts[I].second.c_str(),
                 (unsigned long long)Counts[I].first);
  std::fprintf(stderr, "\n");
  std::fprintf(stderr,
               "capture-probe profile: launches through the probe's wrappers: "
               "%llu the runtime's, %llu the program's; CUPTI's launch "
               "callbacks off: runtime %s, driver %s\n",
               wrappedLaunches(true), wrappedLaunches(false),
               RuntimeLaunchesOff ? "yes" : "no",
               DriverLaunchesOff ? "yes" : "no");
  if (CallsThroughWrappers)
    std::fprintf(stderr,
                 "capture-probe profile: without CUPTI, other driver calls "
                 "through the probe's wrappers: %llu the runtime's, %llu "
                 "others'; lookups in a handle through the probe's dlsym: "
                 "%llu; modules loaded after the start: %u scanned, %u "
                 "copies redirected\n",
                 wrappedDriverCalls(true), wrappedDriverCalls(false),
                 wrappedLookups(), LaterModules.load(), LaterCopies.load());
  std::fprintf(stderr,
               "capture-probe profile: at the start, %zu copies of %u "
               "%sentry points redirected in %llu bytes of writable data "
               "(%.1f ms):",
               StartScan.Replaced.size(), StartScan.EntryPoints,
               CallsThroughWrappers ? "driver " : "launch ",
               StartScan.BytesScanned, StartScan.Milliseconds);
  // By module: without CUPTI there are hundreds.
  std::map<std::string, unsigned> ByModule;
  for (const std::string &W : StartScan.Replaced)
    ++ByModule[W.substr(0, W.rfind('+'))];
  for (const auto &[Module, N] : ByModule)
    std::fprintf(stderr, " %s x%u", Module.c_str(), N);
  std::fprintf(stderr, "\n");
}

struct PhaseTimer {
  explicit PhaseTimer(Phase P) : P(P) {
    if (Prof.On)
      Start = std::chrono::steady_clock::now();
  }
  ~PhaseTimer() {
    if (Prof.On)
      Prof.Ns[P] +=
          uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                       std::chrono::steady_clock::now() - Start)
                       .count());
  }
  Phase P;
  std::chrono::steady_clock::time_point Start;
};

/// A graph walk (GraphInspection.h): the probe's own driver calls, timed.
GraphSummary walkGraph(CUgraph Graph, unsigned What) {
  ProbeCall Own;
  PhaseTimer T(PhaseGraph);
  return inspectGraph(Graph, What);
}

std::mutex LaunchLock;
std::unordered_map<uint64_t, uint64_t> &ExecLaunches = // exec -> launches
    *new std::unordered_map<uint64_t, uint64_t>;
std::atomic<uint64_t> EagerKernels{0};

std::string resultName(CUpti_CallbackDomain Domain, int Result) {
  if (Domain == CUPTI_CB_DOMAIN_RUNTIME_API)
    if (const char *Name = runtimeErrorName(Result))
      return Name;
  // cuGetErrorName only reads a table; the numbers mostly agree. The
  // probe's own call: its callbacks (off, a lookup, unless
  // CAPTURE_PROBE_ALL_CALLBACKS) must not reset the thread's call state.
  ProbeCall Own;
  const char *Name = nullptr;
  if (cuGetErrorName(CUresult(Result), &Name) != CUDA_SUCCESS)
    Name = nullptr;
  return Name ? Name : "";
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

/// Device allocations (base -> size), and the allocations each live
/// executable graph's nodes use, to catch a free of memory a graph still
/// uses and its next launch.
std::mutex MemoryLock;
std::map<uint64_t, uint64_t> &Allocations = *new std::map<uint64_t, uint64_t>;
AllocationHolders &Holders = *new AllocationHolders;
/// Each live executable graph's buffers, by node (for a free of any part of
/// a block: PyTorch's caching allocator, through TorchBridge).
std::unordered_map<uint64_t, std::shared_ptr<const GraphBuffers>> &ExecBuffers =
    *new std::unordered_map<uint64_t, std::shared_ptr<const GraphBuffers>>;
std::unordered_map<uint64_t, bool> &Stale = // exec -> freed memory it uses
    *new std::unordered_map<uint64_t, bool>;
std::atomic<bool> AnyStale{false};

/// The allocation holding \p Address, or 0 (MemoryLock held).
uint64_t allocationOf(uint64_t Address) {
  auto It = Allocations.upper_bound(Address);
  if (It == Allocations.begin())
    return 0;
  --It;
  return Address < It->first + It->second ? It->first : 0;
}

/// The allocations holding \p Addresses, each once.
std::vector<uint64_t> basesOf(const std::vector<uint64_t> &Addresses) {
  std::vector<uint64_t> Bases;
  std::lock_guard<std::mutex> G(MemoryLock);
  for (uint64_t A : Addresses)
    if (uint64_t B = A ? allocationOf(A) : 0)
      if (std::find(Bases.begin(), Bases.end(), B) == Bases.end())
        Bases.push_back(B);
  return Bases;
}

std::vector<std::string> timedFrames() {
  PhaseTimer T(PhaseStack);
  return captureFrames();
}

/// Writes a lifecycle event. Those the report shows with their call site
/// (a free of memory a graph holds, the stale launch after it) take a
/// stack; those that only keep count (instantiations, first launches,
/// updates, launch counts) take none: their sites are never shown, and a
/// capture-heavy program instantiates after every capture.
void writeLifecycle(EventSink *Sink, Event &E, bool WithSite) {
  if (WithSite) {
    E.Frames = timedFrames();
    PhaseTimer T(PhasePython);
    E.PyFrames = pythonStack(); // a Python program: the user's line
  }
  PhaseTimer T(PhaseWrite);
  E.Seq = nextSequence();
  E.Thread = currentThreadId();
  Folder.flush(); // the thread's held call came first
  Sink->write(E);
}

/// The kernel nodes of the graph \p E instantiates (into E.Count) and the
/// buffers its nodes use: from the walk made when its capture ended if the
/// graph has not changed since, else from a walk now.
std::shared_ptr<const GraphBuffers> instantiatedGraph(Event &E) {
  std::optional<uint64_t> Kernels;
  std::shared_ptr<const GraphBuffers> Addresses;
  {
    std::lock_guard<std::mutex> G(StateLock);
    auto It = CapturedGraphs.find(E.Graph);
    if (It != CapturedGraphs.end()) {
      Kernels = It->second.Kernels;
      Addresses = It->second.Addresses;
    }
  }
  if (!Addresses) {
    GraphSummary S = walkGraph(CUgraph(uintptr_t(E.Graph)), WalkAddresses);
    if (!Kernels)
      Kernels = uint64_t(S.Types["kernel"]);
    Addresses = std::move(S.Buffers);
  }
  E.Count = *Kernels;
  return Addresses;
}

/// The node of executable graph \p Exec that uses [Address, Address + Size),
/// described, or "" (MemoryLock held).
std::string nodeUsing(uint64_t Exec, uint64_t Address, uint64_t Size) {
  auto It = ExecBuffers.find(Exec);
  const BufferUse *U =
      It == ExecBuffers.end() ? nullptr : It->second->usesRange(Address, Size);
  return U ? It->second->describe(*U, cachedKernelName) : "";
}

/// A device allocation, remembered (cudaMalloc and friends: {void **, size}).
void onAlloc(void *const *P, int Result) {
  auto *Ptr = static_cast<void *const *>(P[0]);
  if (Result != 0 || !Ptr || !*Ptr)
    return;
  std::lock_guard<std::mutex> G(MemoryLock);
  Allocations[uint64_t(uintptr_t(*Ptr))] =
      *reinterpret_cast<const size_t *>(&P[1]);
}

/// A free of an allocation live executable graphs use: a FreedWhileHeld
/// event for each of them, which are marked stale.
void onFree(EventSink *Sink, Event &E, void *const *P) {
  uint64_t Base = uint64_t(uintptr_t(P[0]));
  std::vector<std::pair<uint64_t, std::string>> Stales; // exec, node
  {
    std::lock_guard<std::mutex> G(MemoryLock);
    auto A = E.Result == 0 ? Allocations.find(Base) : Allocations.end();
    if (A == Allocations.end())
      return;
    uint64_t Size = A->second;
    Allocations.erase(A);
    for (uint64_t X : Holders.holders(Base))
      if (!Stale.count(X)) {
        Stales.emplace_back(X, nodeUsing(X, Base, Size));
        Stale[X] = true;
        AnyStale = true;
      }
  }
  for (const auto &[X, Node] : Stales) {
    Event F = E;
    F.Kind = EventKind::FreedWhileHeld;
    F.Exec = X;
    F.Count = Base;
    F.Node = Node;
    writeLifecycle(Sink, F, /*WithSite=*/true);
  }
}

/// A graph launch: reported if the graph uses freed memory (once), counted,
/// and the first launch of each executable graph recorded.
void onLaunch(EventSink *Sink, Event &E, void *const *P, bool MadeNodes) {
  if (E.Result != 0 || MadeNodes)
    return; // failed, or a child graph added to a capture
  E.Exec = uint64_t(uintptr_t(P[0]));
  if (AnyStale.load(std::memory_order_relaxed)) {
    bool Report = false;
    {
      std::lock_guard<std::mutex> G(MemoryLock);
      auto It = Stale.find(E.Exec);
      if (It != Stale.end() && It->second) {
        It->second = false; // reported once
        Report = true;
      }
    }
    if (Report) {
      Event S = E;
      S.Kind = EventKind::StaleLaunch;
      writeLifecycle(Sink, S, /*WithSite=*/true);
    }
  }
  {
    std::lock_guard<std::mutex> G(LaunchLock);
    if (ExecLaunches[E.Exec]++ != 0)
      return;
  }
  E.Kind = EventKind::FirstLaunch;
  writeLifecycle(Sink, E, /*WithSite=*/false);
}

/// An instantiation: the buffers the new executable graph uses, for frees
/// and launches to come.
void onInstantiate(EventSink *Sink, Event &E, void *const *P) {
  auto *Exec = static_cast<void *const *>(P[0]);
  if (E.Result != 0 || !Exec || !*Exec)
    return;
  E.Kind = EventKind::Instantiate;
  E.Exec = uint64_t(uintptr_t(*Exec));
  E.Graph = uint64_t(uintptr_t(P[1]));
  std::shared_ptr<const GraphBuffers> Buffers = instantiatedGraph(E);
  std::vector<uint64_t> Bases = basesOf(Buffers->addresses());
  {
    std::lock_guard<std::mutex> G(LaunchLock);
    ExecLaunches[E.Exec] = 0;
  }
  {
    std::lock_guard<std::mutex> G(MemoryLock);
    Stale.erase(E.Exec);
    Holders.hold(E.Exec, std::move(Bases));
    if (Buffers->uses().empty())
      ExecBuffers.erase(E.Exec);
    else
      ExecBuffers[E.Exec] = std::move(Buffers);
  }
  writeLifecycle(Sink, E, /*WithSite=*/false);
}

/// An update of an executable graph, with its launches so far.
void onUpdate(EventSink *Sink, Event &E, void *const *P) {
  E.Kind = EventKind::ExecUpdate;
  E.Exec = uint64_t(uintptr_t(P[0]));
  E.Graph = uint64_t(uintptr_t(P[1]));
  {
    std::lock_guard<std::mutex> G(LaunchLock);
    auto It = ExecLaunches.find(E.Exec);
    E.Count = It == ExecLaunches.end() ? 0 : It->second; // launches so far
  }
  writeLifecycle(Sink, E, /*WithSite=*/false);
}

/// An executable graph destroyed: its launch count, and its buffers
/// forgotten.
void onExecDestroy(EventSink *Sink, Event &E, void *const *P) {
  E.Kind = EventKind::Launches;
  E.Exec = uint64_t(uintptr_t(P[0]));
  {
    std::lock_guard<std::mutex> G(MemoryLock);
    Holders.release(E.Exec);
    ExecBuffers.erase(E.Exec);
    Stale.erase(E.Exec);
  }
  {
    std::lock_guard<std::mutex> G(LaunchLock);
    auto It = ExecLaunches.find(E.Exec);
    if (It == ExecLaunches.end())
      return;
    E.Count = It->second;
    ExecLaunches.erase(It);
  }
  writeLifecycle(Sink, E, /*WithSite=*/false);
}

/// Instantiations, first launches, updates and destructions of executable
/// graphs; later launches are counted. Every parameter struct involved
/// starts with the executable graph (or a pointer to it), then the graph.
void onLifecycle(Lifecycle L, const CUpti_CallbackData *Data, int Result,
                 bool MadeNodes, const char *Api) {
  EventSink *Sink = TheSink.load();
  auto *P = static_cast<void *const *>(Data->functionParams);
  if (!Sink || !P)
    return;
  // Every kernel launch comes here: count it without building an event.
  if (L == Lifecycle::Kernel) {
    if (Result == 0 && !MadeNodes)
      EagerKernels.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  if (L == Lifecycle::Alloc)
    return onAlloc(P, Result);
  Event E;
  E.Api = Api;
  E.Result = Result;
  switch (L) {
  case Lifecycle::Free:
    return onFree(Sink, E, P);
  case Lifecycle::Launch:
    return onLaunch(Sink, E, P, MadeNodes);
  case Lifecycle::Instantiate:
    return onInstantiate(Sink, E, P);
  case Lifecycle::Update:
    return onUpdate(Sink, E, P);
  case Lifecycle::ExecDestroy:
    return onExecDestroy(Sink, E, P);
  case Lifecycle::Alloc:
  case Lifecycle::Kernel:
  case Lifecycle::None:
    return;
  }
}

/// At exit: the launch counts of the executable graphs still alive, and the
/// kernels launched outside graphs.
void writeLaunchCounts() {
  EventSink *Sink = TheSink.load();
  if (!Sink)
    return;
  std::unordered_map<uint64_t, uint64_t> Counts;
  {
    std::lock_guard<std::mutex> G(LaunchLock);
    Counts.swap(ExecLaunches);
  }
  for (const auto &KV : Counts) {
    Event E;
    E.Kind = EventKind::Launches;
    E.Api = "(exit)";
    E.Exec = KV.first;
    E.Count = KV.second;
    writeLifecycle(Sink, E, /*WithSite=*/false);
  }
  Event T;
  T.Kind = EventKind::Totals;
  T.Api = "(exit)";
  T.Count = EagerKernels.load();
  writeLifecycle(Sink, T, /*WithSite=*/false);
  if (Prof.On) {
    CallStackCounts Stacks = callStackCounts();
    std::fprintf(stderr,
                 "capture-probe profile: %llu events; ms in stacks %.1f "
                 "(%llu unwound, %llu recognised), graph inspection %.1f, "
                 "Python frames %.1f, writing %.1f\n",
                 (unsigned long long)Prof.Events.load(),
                 Prof.Ns[PhaseStack] / 1e6, (unsigned long long)Stacks.Unwound,
                 (unsigned long long)Stacks.Reused, Prof.Ns[PhaseGraph] / 1e6,
                 Prof.Ns[PhasePython] / 1e6, Prof.Ns[PhaseWrite] / 1e6);
  }
  if (Prof.On)
    printCallbackCounts();
}

/// An ended capture's graph: its nodes by type and collectives for the
/// event, its kernel count and addresses kept for its instantiation.
void inspectCapturedGraph(Event &E) {
  GraphSummary S =
      walkGraph(CUgraph(uintptr_t(E.Graph)), WalkCollectives | WalkAddresses);
  E.GraphNodes = std::move(S.Types);
  E.Collectives = std::move(S.Collectives);
  std::lock_guard<std::mutex> G(StateLock);
  if (CapturedGraphs.size() > 4096)
    CapturedGraphs.clear();
  auto K = E.GraphNodes.find("kernel");
  CapturedGraph &C = CapturedGraphs[E.Graph];
  C.Kernels = K == E.GraphNodes.end() ? 0 : K->second;
  C.Addresses = std::move(S.Buffers);
}

/// Drops the kept addresses of graphs a call may have changed: the graph a
/// cudaGraphDestroy names (its handle may be reused), every graph for other
/// changing calls and captures into an existing graph. Kernel counts are
/// kept, as before the addresses were kept.
void dropGraphAddresses(const char *Name, const void *Params) {
  if (!Name || Name[0] != 'c' || Name[1] != 'u')
    return;
  const char *Rest = nullptr;
  if (std::strncmp(Name, "cudaGraph", 9) == 0)
    Rest = Name + 9;
  else if (std::strncmp(Name, "cuGraph", 7) == 0)
    Rest = Name + 7;
  bool ToGraph = !Rest && std::strstr(Name, "CaptureToGraph");
  if (!ToGraph && !(Rest && mayChangeGraph(Rest)))
    return;
  std::lock_guard<std::mutex> G(StateLock);
  // "Destroy", or with a version suffix as some CUPTI names carry
  // ("Destroy_v10000").
  bool Destroy = Rest && std::strncmp(Rest, "Destroy", 7) == 0 &&
                 (Rest[7] == '\0' || Rest[7] == '_');
  if (Destroy && Params) {
    auto It = CapturedGraphs.find(
        uint64_t(uintptr_t(*static_cast<void *const *>(Params))));
    if (It != CapturedGraphs.end())
      It->second.Addresses.reset();
    return;
  }
  for (auto &KV : CapturedGraphs)
    KV.second.Addresses.reset();
}

/// Module and library unloads: kernel handles may be reused after them.
void noteUnload(CUpti_CallbackDomain Domain, CUpti_CallbackId Id) {
  if (Domain == CUPTI_CB_DOMAIN_DRIVER_API &&
      (Id == CUPTI_DRIVER_TRACE_CBID_cuModuleUnload ||
       Id == CUPTI_DRIVER_TRACE_CBID_cuLibraryUnload))
    forgetKernels();
}

void onEnter(CUpti_CallbackDomain Domain, CUpti_CallbackId Id,
             const CUpti_CallbackData *Data) {
  if (TS.Depth++ != 0)
    return;
  TS.OuterDomain = Domain;
  TS.OuterId = Id;
  TS.NodesAtEntry = TS.NodesCreated;
  TS.PendingMode =
      kindOf(Domain, Id) == EventKind::ExchangeMode && Data->functionParams
          ? exchangeModeAsked(Domain, Data->functionParams)
          : -1;
}

/// Whether an outermost call of kind \p Kind is one of the program's calls
/// that may become an event: not the <<<>>> configuration, not a driver
/// lookup, and, outside captures, only a stream-work call in the window
/// after a failed capture (then \p Fallback is set).
bool mayRecord(CUpti_CallbackDomain Domain, const CUpti_CallbackData *Data,
               EventKind Kind, bool &Fallback) {
  const char *Name = Data->functionName;
  // A <<<>>> launch is three runtime calls: the configuration pushed and
  // popped by the launch machinery, then the launch. Only the launch is
  // the program's.
  if (Domain == CUPTI_CB_DOMAIN_RUNTIME_API && Name && Name[0] == '_' &&
      (std::strncmp(Name, "__cudaPushCallConfiguration", 27) == 0 ||
       std::strncmp(Name, "__cudaPopCallConfiguration", 26) == 0))
    return false;
  if (Kind == EventKind::Call && Domain == CUPTI_CB_DOMAIN_DRIVER_API &&
      isLookup(Name))
    return false;
  Fallback = false;
  if (Kind != EventKind::Call || Active.any())
    return true;
  // After a failed capture, the thread's next work calls are recorded:
  // the same work running eagerly is a silent fallback.
  if (TS.FallbackWindow <= 0)
    return false;
  --TS.FallbackWindow;
  // The catalog is read once, the first time a capture has failed.
  static const ApiCatalog &Catalog = *new ApiCatalog(ApiCatalog::builtin());
  if (!Name || !Catalog.issuesStreamWork(Name))
    return false;
  Fallback = true;
  return true;
}

/// The event of an outermost call, its stacks included as needed; false if
/// it is the runtime library's own driver call. Sets \p Clean for work a
/// capture took in cleanly.
bool readCall(CUpti_CallbackDomain Domain, CUpti_CallbackId Id,
              const CUpti_CallbackData *Data, int Result, bool MadeNodes,
              bool Fallback, Event &E, bool &Clean) {
  E.Kind = kindOf(Domain, Id);
  E.Api = Data->functionName ? Data->functionName : "?";
  E.Result = Result;
  // Without CUPTI, the runtime's driver calls stand for the program's
  // runtime calls, whose results the program sees (the same numbers).
  E.ByRuntime = CallsThroughWrappers && TS.ByRuntime &&
                Domain == CUPTI_CB_DOMAIN_DRIVER_API;
  if (E.ByRuntime)
    E.Caller = uint64_t(uintptr_t(TS.Caller));
  if (E.Result != 0)
    E.ResultName = resultName(
        E.ByRuntime ? CUPTI_CB_DOMAIN_RUNTIME_API : Domain, E.Result);
  E.NodesCreated = int(TS.NodesCreated - TS.NodesAtEntry);
  E.AfterFailedCapture = Fallback;
  if (Lifecycle L = lifecycleOf(Domain, Id);
      L == Lifecycle::Kernel && Data->functionParams)
    E.Kernel = launchedKernel(Domain, Id, Data->functionParams);
  // Work the capture took in cleanly has nothing to report, nor has an end
  // that succeeded (a capture is known by its begin): no stack, the
  // dearest part of an event (a capture-heavy program makes thousands);
  // but in the first capture begun at a call chain, clean work of a native
  // program keeps its stack, to show how far the capture went
  // (FirstCaptures); in a Python program that stack is the interpreter's.
  Clean = E.Kind == EventKind::Call && Result == 0 && MadeNodes && !Fallback;
  bool EndedCleanly = E.Kind == EventKind::EndCapture && Result == 0;
  {
    PhaseTimer T(PhasePython);
    E.PyFrames = pythonStack();
  }
  if ((!Clean || (First.any() && E.PyFrames.empty())) && !EndedCleanly)
    E.Frames = timedFrames();
  // Without CUPTI, the runtime's driver calls are the program's runtime
  // calls (there are no runtime callbacks around them).
  if (E.Kind == EventKind::Call && Domain == CUPTI_CB_DOMAIN_DRIVER_API &&
      !E.ByRuntime && madeByRuntimeLibrary(E.Frames))
    return false;
  if (E.Kind == EventKind::Call && Data->functionParams)
    readEventCall(Domain, Id, Data->functionParams, E);
  return true;
}

void onBeginCapture(CUpti_CallbackDomain Domain, CUpti_CallbackId Id,
                    const void *Params, Event &E) {
  readBegin(Domain, Id, Params, E);
  E.NonBlocking = streamIsNonBlocking(*E.Stream);
  if (E.Result != 0) {
    TS.FallbackWindow = FallbackCalls;
    return;
  }
  Active.begin(*E.Stream);
  ++TS.OwnCaptures;
  First.begin(*E.Stream, E.Frames);
  if (E.ToGraph) {
    std::lock_guard<std::mutex> G(StateLock);
    CaptureTarget[*E.Stream] = E.Graph;
  }
}

void onEndCapture(const void *Params, Event &E) {
  // cudaStreamEndCapture and cuStreamEndCapture: {stream, graph*}.
  // A capture begun with cudaStreamBeginCaptureToGraph may end with a
  // null graph pointer: its nodes are in the graph it was begun with.
  auto *P = static_cast<const cuStreamEndCapture_params *>(Params);
  E.Stream = uint64_t(uintptr_t(P->hStream));
  if (Active.end(*E.Stream) && TS.OwnCaptures > 0)
    --TS.OwnCaptures;
  First.end(*E.Stream);
  uint64_t Target = 0;
  {
    std::lock_guard<std::mutex> G(StateLock);
    auto It = CaptureTarget.find(*E.Stream);
    if (It != CaptureTarget.end()) {
      Target = It->second;
      CaptureTarget.erase(It);
    }
  }
  if (E.Result == 0 && P->phGraph && *P->phGraph) {
    E.GraphReturned = true;
    E.Graph = uint64_t(uintptr_t(*P->phGraph));
  } else if (E.Result == 0) {
    E.Graph = Target;
  }
  if (E.Graph)
    inspectCapturedGraph(E);
  if (E.Result != 0)
    TS.FallbackWindow = FallbackCalls;
}

/// Writes a call's event: clean captured work of a thread inside a capture
/// it began itself through the thread's folder, which counts identical calls
/// in a row as one event; the thread's end of that capture writes the held
/// one. (Work other threads add to a capture, PyTorch's autograd threads
/// say, is written call by call: such a thread may make no other call until
/// the program exits.)
void writeCall(EventSink *Sink, Event &&E, bool Clean) {
  E.Seq = nextSequence();
  E.Thread = currentThreadId();
  ++Prof.Events;
  PhaseTimer T(PhaseWrite);
  if (Clean && TS.OwnCaptures > 0 && CallFolder::foldable(E)) {
    Folder.add(std::move(E), Sink);
    return;
  }
  Folder.flush();
  Sink->write(E);
}

/// The exit of a call: bookkeeping for every call, then, for an outermost
/// call of the program's, its lifecycle and its event.
void onExit(CUpti_CallbackDomain Domain, CUpti_CallbackId Id,
            const CUpti_CallbackData *Data) {
  --TS.Depth;
  int Result = returnValue(Domain, Data);
  if (Result == 0 && Data->functionParams)
    noteStreamCreation(Domain, Id, Data->functionParams);
  dropGraphAddresses(Data->functionName, Data->functionParams);
  noteUnload(Domain, Id);
  if (TS.Depth != 0)
    return; // nested inside another API call of this thread
  bool MadeNodes = TS.NodesCreated != TS.NodesAtEntry;
  if (Lifecycle L = lifecycleOf(Domain, Id); L != Lifecycle::None)
    onLifecycle(L, Data, Result, MadeNodes,
                Data->functionName ? Data->functionName : "?");
  EventKind Kind = kindOf(Domain, Id);
  bool Fallback = false;
  if (!mayRecord(Domain, Data, Kind, Fallback))
    return;
  EventSink *Sink = TheSink.load();
  if (!Sink || (Kind != EventKind::Call && !Data->functionParams))
    return; // cudaDeviceSynchronize and friends have no parameters
  Event E;
  bool Clean = false;
  if (!readCall(Domain, Id, Data, Result, MadeNodes, Fallback, E, Clean))
    return;
  switch (Kind) {
  case EventKind::BeginCapture:
    onBeginCapture(Domain, Id, Data->functionParams, E);
    break;
  case EventKind::EndCapture:
    onEndCapture(Data->functionParams, E);
    break;
  case EventKind::ExchangeMode:
    if (auto M = modeFromEnum(TS.PendingMode))
      E.Mode = *M;
    else
      return;
    break;
  default:
    break;
  }
  writeCall(Sink, std::move(E), Clean);
}

void onApi(CUpti_CallbackDomain Domain, CUpti_CallbackId Id,
           const CUpti_CallbackData *Data) {
  if (TS.InProbe)
    return;
  if (Data->callbackSite == CUPTI_API_ENTER)
    onEnter(Domain, Id, Data);
  else
    onExit(Domain, Id, Data);
}

void switchOff(CUpti_CallbackDomain Domain,
               const std::vector<CUpti_CallbackId> &Ids,
               std::atomic<bool> &Done) {
  if (Done.exchange(true))
    return;
  // One that cannot be switched off is only slower: its callbacks come
  // first, and the wrapper's call nested in them is ignored.
  for (CUpti_CallbackId Id : Ids)
    cuptiEnableCallback(0, Subscriber, Domain, Id);
}

/// Switches off CUPTI's launch callbacks that the wrappers replace, as
/// CAPTURE_PROBE_LAUNCH_CALLBACKS says, once the runtime's launches reach
/// the wrappers.
void runtimeLaunchesWrapped() {
  if (LaunchOff == LaunchCallbacksOff::None)
    return;
  switchOff(CUPTI_CB_DOMAIN_RUNTIME_API, runtimeLaunchIds(),
            RuntimeLaunchesOff);
  if (LaunchOff == LaunchCallbacksOff::All)
    switchOff(CUPTI_CB_DOMAIN_DRIVER_API, driverLaunchIds(), DriverLaunchesOff);
}

/// cuGetProcAddress returned a driver entry point: a launch entry point is
/// replaced by the probe's wrapper of it. Asked for inside a program's
/// cudaGetDriverEntryPoint, the launches are the program's driver calls;
/// else the runtime fetched it for itself (its table, at its start), and
/// the launches are the runtime's.
void onEntryPoint(const CUpti_CallbackData *Data) {
  if (TS.InProbe || !Data->functionParams ||
      returnValue(CUPTI_CB_DOMAIN_DRIVER_API, Data) != 0)
    return;
  // Both versions' structs start {symbol, pfn, cudaVersion, flags}.
  auto *P = static_cast<const cuGetProcAddress_params *>(Data->functionParams);
  bool ByRuntime =
      !(TS.Depth > 1 && isEntryPointQuery(TS.OuterDomain, TS.OuterId));
  if (wrapEntryPoint(P->symbol, P->flags, P->pfn, ByRuntime) && ByRuntime)
    runtimeLaunchesWrapped();
}

bool isEntryPointLookup(CUpti_CallbackDomain Domain, CUpti_CallbackId Id) {
  return Domain == CUPTI_CB_DOMAIN_DRIVER_API &&
         (Id == CUPTI_DRIVER_TRACE_CBID_cuGetProcAddress ||
          Id == CUPTI_DRIVER_TRACE_CBID_cuGetProcAddress_v2);
}

/// The nodes of the graphs now being captured (without CUPTI's node
/// callback, a call made nodes if their number grew).
int64_t capturingNodes() {
  ProbeCall P;
  int64_t N = 0;
  for (uint64_t S : Active.streams()) {
    CUstreamCaptureStatus Status;
    CUgraph Graph = nullptr;
    size_t Count = 0;
    if (cuStreamGetCaptureInfo(CUstream(uintptr_t(S)), &Status, nullptr, &Graph,
                               nullptr, nullptr, nullptr) == CUDA_SUCCESS &&
        Status == CU_STREAM_CAPTURE_STATUS_ACTIVE && Graph &&
        cuGraphGetNodes(Graph, nullptr, &Count) == CUDA_SUCCESS)
      N += int64_t(Count);
  }
  return N;
}

/// Whether \p Stream is capturing.
bool isCapturing(CUstream Stream) {
  ProbeCall P;
  CUstreamCaptureStatus Status;
  return cuStreamIsCapturing(Stream, &Status) == CUDA_SUCCESS &&
         Status == CU_STREAM_CAPTURE_STATUS_ACTIVE;
}

/// Without CUPTI: before a capture begins, the copies of driver entry points
/// in modules loaded since the last scan are redirected too.
void scanModulesLoadedSince() {
  uint64_t Generation = moduleGeneration();
  if (Generation == ScannedGeneration.load(std::memory_order_acquire))
    return;
  std::lock_guard<std::mutex> G(ScanLock);
  EntryPointScan S =
      redirectEntryPoints(KnownEntries, false, &Scanned, /*Imports=*/true);
  LaterModules += S.Modules;
  LaterCopies += unsigned(S.Replaced.size());
  ScannedGeneration.store(Generation, std::memory_order_release);
}

/// A call that reached a wrapper, handled as CUPTI's callback for it.
/// Without CUPTI, the nodes it made are counted here: those of a kernel
/// launch from its stream (a launch that succeeded on a capturing stream
/// made one node: one driver call), those of other calls from the graphs
/// being captured before and after (four).
void onWrapped(CUpti_CallbackDomain Domain, CUpti_CallbackId Id,
               const CUpti_CallbackData &Data, bool ByRuntime,
               const CUstream *LaunchStream = nullptr,
               const void *Caller = nullptr) {
  if (TS.InProbe)
    return;
  bool Enter = Data.callbackSite == CUPTI_API_ENTER;
  if (CallsThroughWrappers && TS.Depth == (Enter ? 0 : 1)) {
    if (Enter) {
      if (kindOf(Domain, Id) == EventKind::BeginCapture)
        scanModulesLoadedSince();
      TS.ByRuntime = ByRuntime;
      TS.Caller = Caller;
      TS.CapturingNodesAtEntry =
          Active.any() && !LaunchStream ? capturingNodes() : -1;
      if (Prof.On)
        countCallback(Domain, Id);
    } else if (LaunchStream) {
      if (Active.any() && returnValue(Domain, &Data) == 0 &&
          isCapturing(*LaunchStream))
        ++TS.NodesCreated;
    } else if (TS.CapturingNodesAtEntry >= 0) {
      int64_t Made = capturingNodes() - TS.CapturingNodesAtEntry;
      TS.NodesCreated += uint64_t(std::max<int64_t>(Made, 0));
    }
  }
  onApi(Domain, Id, &Data);
}

/// A launch that reached a wrapper.
void onWrappedLaunch(const WrappedLaunch &L, const CUresult *Result) {
  if (EmptyCallbacks)
    return;
  LaunchCallback C(L, Result);
  onWrapped(C.Domain, C.Id, C.Data, L.ByRuntime, &C.Stream);
}

/// Another driver call that reached a wrapper (CUPTI never subscribed). An
/// entry point cuGetProcAddress hands out is wrapped too.
void onWrappedCall(const WrappedCall &C, const CUresult *Result) {
  if (EmptyCallbacks)
    return;
  if (isEntryPointLookup(CUPTI_CB_DOMAIN_DRIVER_API, C.Id)) {
    // Both versions' structs start {symbol, pfn, cudaVersion, flags}.
    auto *P = static_cast<const cuGetProcAddress_params *>(C.Params);
    if (Result && *Result == CUDA_SUCCESS && P->pfn && *P->pfn)
      wrapKnownEntryPoint(KnownEntries, P->pfn, C.ByRuntime);
    return;
  }
  CUresult Copy = Result ? *Result : CUDA_SUCCESS;
  CUpti_CallbackData D = {};
  D.callbackSite = Result ? CUPTI_API_EXIT : CUPTI_API_ENTER;
  D.functionName = C.Name;
  D.functionParams = C.Params;
  D.functionReturnValue = Result ? &Copy : nullptr;
  onWrapped(CUPTI_CB_DOMAIN_DRIVER_API, C.Id, D, C.ByRuntime, nullptr,
            C.Caller);
}

/// Without CUPTI: a module looked up a symbol (dlsym in a handle, as a
/// library embedding the static runtime finds cuGetProcAddress): a driver
/// entry point is handed out as its wrapper.
void onLookup(void **Result, bool ByRuntime) {
  wrapKnownEntryPoint(KnownEntries, Result, ByRuntime);
}

void onResource(CUpti_CallbackId Id, const CUpti_ResourceData *Data) {
  if (Id == CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED && !TS.InProbe)
    ++TS.NodesCreated;
}

void CUPTIAPI callback(void *, CUpti_CallbackDomain Domain, CUpti_CallbackId Id,
                       const void *Data) {
  if (!Data)
    return;
  if (isEntryPointLookup(Domain, Id) &&
      static_cast<const CUpti_CallbackData *>(Data)->callbackSite ==
          CUPTI_API_EXIT)
    onEntryPoint(static_cast<const CUpti_CallbackData *>(Data));
  if (EmptyCallbacks)
    return;
  if (Prof.On &&
      (Domain == CUPTI_CB_DOMAIN_RUNTIME_API ||
       Domain == CUPTI_CB_DOMAIN_DRIVER_API) &&
      static_cast<const CUpti_CallbackData *>(Data)->callbackSite ==
          CUPTI_API_ENTER)
    countCallback(Domain, Id);
  if (Domain == CUPTI_CB_DOMAIN_RESOURCE)
    onResource(Id, static_cast<const CUpti_ResourceData *>(Data));
  else if (Domain == CUPTI_CB_DOMAIN_RUNTIME_API ||
           Domain == CUPTI_CB_DOMAIN_DRIVER_API)
    onApi(Domain, Id, static_cast<const CUpti_CallbackData *>(Data));
}

/// Which API callbacks stay on. Each one costs CUPTI an enter and an exit
/// callback, so the probe turns off those it never acts on; but which calls
/// it acts on is wide, by design:
///
///  - Every runtime call. Any call made while a capture is active is
///    reported with its result and classes, and the first that fails is the
///    capture's first error whatever it is (the catalog need not know it);
///    outside captures the probe follows begin/end/exchange-mode calls, the
///    graph lifecycle (instantiate, launch, update, exec destroy), graph
///    changes (dropGraphAddresses), stream creation (stream kinds), kernel
///    launches (coverage), allocations and frees (freed-while-held), and a
///    failed capture's next calls (silent fallback). Only the <<<>>>
///    configuration push and pop are never events (onApi drops them by
///    name; CUPTI has no id for them before CUDA 13): off, a launch costs two
///    callbacks instead of six.
///  - Every driver call but the lookups (isLookup). A program that uses the
///    driver API is followed like one that uses the runtime (cuStreamAdd-
///    Callback failing inside a capture is no catalog entry), and driver
///    calls nested in runtime calls still matter (cuModuleUnload,
///    cuLibraryUnload clear the kernel cache). Lookups are never events,
///    whoever makes them: they are most of the driver calls the runtime
///    makes for itself, and all of the probe's own (its graph walks, kernel
///    names and parameters, error names), each of which cost two callbacks.
///    But cuGetProcAddress stays on: the launch entry points it hands out
///    are replaced by the probe's wrappers (onEntryPoint), and CUPTI's
///    launch callbacks go off once the runtime's launches reach them.
///  - The graph-node creation resource callback (enabled in startCupti).
///
/// Ids are turned off after the domains are enabled whole, not on one by
/// one: an id this code does not know (a newer CUPTI) stays on, and a
/// failure only leaves a callback on. Names from cuptiGetCallbackName carry
/// version and per-thread suffixes (cuMemAlloc_v2, cuMemcpy_ptds); isLookup
/// matches prefixes, as onApi does on the same names.
/// CAPTURE_PROBE_ALL_CALLBACKS=1 leaves the domains whole (for debugging:
/// the report must be the same, only slower).
void skipUnneededCallbacks() {
  const char *All = std::getenv("CAPTURE_PROBE_ALL_CALLBACKS");
  if (All && *All && std::string(All) != "0") {
    LaunchOff = LaunchCallbacksOff::None;
    return;
  }
  for (CUpti_CallbackId Id :
       {CUPTI_RUNTIME_TRACE_CBID___cudaPushCallConfiguration_v13000,
        CUPTI_RUNTIME_TRACE_CBID___cudaPopCallConfiguration_v13000})
    cuptiEnableCallback(0, Subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, Id);
  for (CUpti_CallbackId Id = 1; Id < CUPTI_DRIVER_TRACE_CBID_SIZE; ++Id) {
    const char *Name = nullptr;
    if (cuptiGetCallbackName(CUPTI_CB_DOMAIN_DRIVER_API, Id, &Name) ==
            CUPTI_SUCCESS &&
        isLookup(Name) && !isEntryPointLookup(CUPTI_CB_DOMAIN_DRIVER_API, Id))
      cuptiEnableCallback(0, Subscriber, CUPTI_CB_DOMAIN_DRIVER_API, Id);
  }
}

} // namespace

unsigned execUsesRange(uint64_t Exec, uint64_t Address, uint64_t Size) {
  std::lock_guard<std::mutex> G(MemoryLock);
  auto It = ExecBuffers.find(Exec);
  const BufferUse *U =
      It == ExecBuffers.end() ? nullptr : It->second->usesRange(Address, Size);
  return U ? U->Node + 1 : 0;
}

bool noteReleased(uint64_t Exec, uint64_t Address, uint64_t Size,
                  std::vector<std::string> PyFrames) {
  EventSink *Sink = TheSink.load();
  if (!Sink)
    return false;
  Event F;
  {
    std::lock_guard<std::mutex> G(MemoryLock);
    F.Node = nodeUsing(Exec, Address, Size);
    if (F.Node.empty() || Stale.count(Exec))
      return false;
    Stale[Exec] = true;
    AnyStale = true;
  }
  F.Kind = EventKind::FreedWhileHeld;
  F.Api = "caching-allocator free";
  F.Exec = Exec;
  F.Count = Address;
  F.PyFrames = std::move(PyFrames);
  writeLifecycle(Sink, F, /*WithSite=*/false);
  return true;
}

void setCuptiSink(EventSink *Sink) { TheSink.store(Sink); }

/// Whether environment variable \p Name is set and not "0".
static bool envSet(const char *Name) {
  const char *V = std::getenv(Name);
  return V && *V && std::string(V) != "0";
}

/// Driver functions left unwrapped without CUPTI: the lookups, as their
/// callbacks are left off with it (but cuGetProcAddress, whose entry points
/// are wrapped), and the runtime's own bookkeeping: binding its context to
/// a thread and loading modules, which it does inside a program's runtime
/// call (CUPTI's runtime callback around them says so; without it, they
/// would be calls of their own).
static bool unwrappedWithoutCupti(const char *Name) {
  if (std::strncmp(Name, "cuGetProcAddress", 16) == 0)
    return false;
  for (const char *P :
       {"cuInit", "cuCtxSetCurrent", "cuCtxPushCurrent", "cuCtxPopCurrent",
        "cuDevicePrimaryCtx", "cuModuleLoad"})
    if (std::strncmp(Name, P, std::strlen(P)) == 0)
      return true;
  return isLookup(Name);
}

/// CAPTURE_PROBE_CALLS=wrappers: every driver entry point already fetched
/// is redirected to the probe's wrappers, and CUPTI is never subscribed.
static bool startWithoutCupti() {
  CallsThroughWrappers = true;
  KnownEntries = driverLaunchEntryPoints();
  std::vector<KnownEntryPoint> Functions =
      driverFunctionEntryPoints(unwrappedWithoutCupti);
  keepWrapRange(Functions);
  KnownEntries.insert(KnownEntries.end(), Functions.begin(), Functions.end());
  std::sort(KnownEntries.begin(), KnownEntries.end(),
            [](const KnownEntryPoint &A, const KnownEntryPoint &B) {
              return A.Address < B.Address;
            });
  setLaunchObserver(onWrappedLaunch);
  setCallObserver(onWrappedCall);
  setLookupObserver(onLookup);
  ScannedGeneration = moduleGeneration();
  StartScan =
      redirectEntryPoints(KnownEntries, false, &Scanned, /*Imports=*/true);
  Prof.On = envSet("CAPTURE_PROBE_PROFILE");
  std::atexit(writeLaunchCounts);
  return true;
}

/// Subscribes to CUPTI and enables the callbacks the backend acts on (for
/// measurement, CAPTURE_PROBE_DOMAINS=runtime, driver or none enables only
/// that API domain, and CAPTURE_PROBE_NO_NODE_CALLBACK=1 leaves the
/// graph-node callback off: calls are then never known to have made nodes).
/// False, with \p Error, if CUPTI refuses.
static bool subscribe(std::string &Error) {
  const char *DomainsVar = std::getenv("CAPTURE_PROBE_DOMAINS");
  std::string Domains = DomainsVar ? DomainsVar : "";
  auto Check = [&](CUptiResult R, const char *What) {
    if (R == CUPTI_SUCCESS)
      return true;
    const char *Msg = nullptr;
    cuptiGetResultString(R, &Msg);
    Error = std::string(What) + ": " + (Msg ? Msg : "unknown CUPTI error");
    return false;
  };
  return Check(cuptiSubscribe(&Subscriber, callback, nullptr),
               "cuptiSubscribe") &&
         (Domains == "driver" || Domains == "none" ||
          Check(cuptiEnableDomain(1, Subscriber, CUPTI_CB_DOMAIN_RUNTIME_API),
                "enabling runtime API callbacks")) &&
         (Domains == "runtime" || Domains == "none" ||
          Check(cuptiEnableDomain(1, Subscriber, CUPTI_CB_DOMAIN_DRIVER_API),
                "enabling driver API callbacks")) &&
         (envSet("CAPTURE_PROBE_NO_NODE_CALLBACK") ||
          Check(cuptiEnableCallback(1, Subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                                    CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED),
                "enabling graph-node callbacks"));
}

bool startCupti(EventSink *Sink, std::string &Error) {
  static std::atomic<bool> Started{false};
  setCuptiSink(Sink);
  if (Started.exchange(true))
    return true;
  EmptyCallbacks = envSet("CAPTURE_PROBE_EMPTY_CALLBACKS");
  const char *Calls = std::getenv("CAPTURE_PROBE_CALLS");
  if (Calls && std::string(Calls) == "wrappers")
    return startWithoutCupti();
  // Before the callbacks are on: the scan asks cuGetProcAddress itself.
  StartScan = redirectEntryPoints(driverLaunchEntryPoints());
  const char *Domains = std::getenv("CAPTURE_PROBE_DOMAINS");
  if (Domains && std::string(Domains) == "unsubscribed") {
    // Measurement only: the probe loaded and the launches wrapped, CUPTI
    // never subscribed (what being attached costs; no report to speak of).
    setLaunchObserver(onWrappedLaunch);
    return true;
  }
  if (!subscribe(Error)) {
    Started = false;
    return false;
  }
  LaunchOff = launchCallbacksOffFromEnv();
  skipUnneededCallbacks();
  setLaunchObserver(onWrappedLaunch);
  if (!StartScan.Replaced.empty())
    runtimeLaunchesWrapped();
  Prof.On = envSet("CAPTURE_PROBE_PROFILE");
  std::atexit(writeLaunchCounts);
  return true;
}

} // namespace capture_probe
