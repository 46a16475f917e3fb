//===- Event.h - One API call as a backend saw it ---------------*- C++ -*-===//
//
// The probe's unit of observation. A backend (the CUPTI injection library,
// the HIP interposer) turns each outermost runtime or driver call into an
// Event: what was called, by which thread, with what result, on which
// stream if known, how many graph nodes it created, and the raw return
// addresses of the call. Everything else (which capture it belongs to, what
// it means) is worked out offline from a sequence of events.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_EVENT_H
#define CAPTURE_PROBE_EVENT_H

#include "capture_lint/Catalog.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace capture_probe {

/// The catalog's capture mode (one type for capture-lint and the probe); a
/// runtime always reports one of Global, ThreadLocal, Relaxed.
using capture_lint::CaptureMode;
using capture_lint::modeName;  // "global", "thread_local", "relaxed"
using capture_lint::parseMode; // the same, read back
/// The CUDA and HIP enums share these values.
std::optional<CaptureMode> modeFromEnum(int Value);

/// Call, BeginCapture, EndCapture, ExchangeMode: made while a capture was
/// active (begin, end and mode switches always). The graph lifecycle kinds
/// are recorded whatever is capturing: Instantiate (Graph -> Exec, with the
/// graph's kernel-node count), FirstLaunch (an exec's first launch; later
/// ones are only counted), ExecUpdate, Launches (an exec's launch count, at
/// its destruction or at exit) and Totals (at exit: kernels launched outside
/// any graph), FreedWhileHeld (a free of memory that a live executable
/// graph's nodes use: Exec, Count = the allocation, Node = the node that
/// uses it; Api "caching-allocator free" when PyTorch's caching
/// allocator took back a tensor's storage, PyFrames where its last Python
/// reference went) and StaleLaunch (the first launch of such a graph after
/// the free).
enum class EventKind {
  Call,
  BeginCapture,
  EndCapture,
  ExchangeMode,
  Instantiate,
  FirstLaunch,
  ExecUpdate,
  Launches,
  Totals,
  FreedWhileHeld,
  StaleLaunch
};

struct Event {
  uint64_t Seq = 0;
  uint64_t Thread = 0;
  EventKind Kind = EventKind::Call;
  std::string Api;        // as the runtime names it: cudaMalloc, cuMemAlloc_v2
  int Result = 0;         // 0 is success in CUDA and HIP alike
  std::string ResultName; // cudaErrorStreamCaptureUnsupported, ...
  std::optional<uint64_t> Stream;
  /// Graph nodes the call created; absent when the backend cannot tell.
  std::optional<int> NodesCreated;

  // BeginCapture: the capture's mode and stream kind. ExchangeMode: the mode
  // the thread switched to.
  CaptureMode Mode = CaptureMode::Global;
  std::optional<bool> NonBlocking;
  bool ToGraph = false;

  // EndCapture: whether a graph came back, and its nodes by type.
  bool GraphReturned = false;
  std::map<std::string, int> GraphNodes;

  // Lifecycle: the graph and executable graph handles; Count is the
  // launch count (Launches), the kernel nodes (Instantiate) or the kernels
  // launched outside graphs (Totals).
  uint64_t Graph = 0, Exec = 0;
  uint64_t Count = 0;
  /// cudaEventRecord / cudaStreamWaitEvent: the event (Stream: the stream).
  std::optional<uint64_t> CudaEvent;
  /// Kernel launches: the kernel (host stub or CUfunction), which names the
  /// work when its call stack is not recorded.
  uint64_t Kernel = 0;
  /// FreedWhileHeld: the node of the executable graph that uses the freed
  /// block, described ("kernel node 1 of 1 (name), argument 2").
  std::string Node;
  /// EndCapture: the graph's collective (NCCL) kernels, in node order.
  std::vector<std::string> Collectives;
  /// Made by the thread within a few calls after its capture failed.
  bool AfterFailedCapture = false;
  /// Without CUPTI (CAPTURE_PROBE_CALLS=wrappers): a driver call the CUDA
  /// runtime made for one of the program's runtime calls. Api is the driver
  /// function until the report names the runtime's from the stack
  /// (RuntimeCalls.h); DriverApi then keeps it.
  bool ByRuntime = false;
  std::string DriverApi;
  /// By the runtime: where in it the driver call was made (a return
  /// address, 0 if unknown). Calls without a stack are named after the
  /// calls with one made at the same place.
  uint64_t Caller = 0;
  /// Calls: how many identical calls of one thread in a row this event
  /// stands for (clean captured work folded by the backend, EventFolding.h),
  /// and the last one's sequence number (0 when Repeats is 1).
  uint64_t Repeats = 1;
  uint64_t LastSeq = 0;

  /// Return addresses as "module+0xoffset", innermost first. Left empty
  /// for work a capture took in cleanly (it made nodes and succeeded):
  /// nothing to report there, and a capture-heavy program makes thousands.
  std::vector<std::string> Frames;
  /// For Python programs: the Python stack, innermost first, as
  /// "file:line:function".
  std::vector<std::string> PyFrames;
};

} // namespace capture_probe

#endif // CAPTURE_PROBE_EVENT_H
