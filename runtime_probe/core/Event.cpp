//===- Event.cpp - Capture mode names -------------------------------------===//

#include "capture_probe/Event.h"

namespace capture_probe {

const char *modeName(CaptureMode M) {
  switch (M) {
  case CaptureMode::Global:
    return "global";
  case CaptureMode::ThreadLocal:
    return "thread_local";
  case CaptureMode::Relaxed:
    return "relaxed";
  }
  return "global";
}

std::optional<CaptureMode> parseMode(const std::string &S) {
  if (S == "global")
    return CaptureMode::Global;
  if (S == "thread_local")
    return CaptureMode::ThreadLocal;
  if (S == "relaxed")
    return CaptureMode::Relaxed;
  return std::nullopt;
}

std::optional<CaptureMode> modeFromEnum(int Value) {
  // cudaStreamCaptureModeGlobal = 0, ThreadLocal = 1, Relaxed = 2; the
  // driver's CU_STREAM_CAPTURE_MODE_* and HIP's hipStreamCaptureMode* agree.
  switch (Value) {
  case 0:
    return CaptureMode::Global;
  case 1:
    return CaptureMode::ThreadLocal;
  case 2:
    return CaptureMode::Relaxed;
  default:
    return std::nullopt;
  }
}

} // namespace capture_probe
