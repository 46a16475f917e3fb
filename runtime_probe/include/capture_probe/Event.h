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

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace capture_probe {

enum class CaptureMode { Global, ThreadLocal, Relaxed };

/// "global", "thread_local", "relaxed" (the catalog's spelling).
const char *modeName(CaptureMode M);
std::optional<CaptureMode> parseMode(const std::string &S);
/// The CUDA and HIP enums share these values.
std::optional<CaptureMode> modeFromEnum(int Value);

enum class EventKind { Call, BeginCapture, EndCapture, ExchangeMode };

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

  /// Return addresses as "module+0xoffset", innermost first.
  std::vector<std::string> Frames;
};

} // namespace capture_probe

#endif // CAPTURE_PROBE_EVENT_H
