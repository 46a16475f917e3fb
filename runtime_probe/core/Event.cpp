//===- Event.cpp - Capture modes as the runtimes number them --------------===//

#include "capture_probe/Event.h"

namespace capture_probe {

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
