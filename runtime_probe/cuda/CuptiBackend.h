//===- CuptiBackend.h - CUDA calls to events via CUPTI ------- -*- C++ -*-===//
//
// Subscribes to CUPTI's runtime and driver API callbacks and to graph-node
// creation, and turns every outermost API call made while a capture is
// active (and every begin, end and capture-mode switch) into an Event for
// the sink. Used by the injection library (CUDA_INJECTION64_PATH) and,
// in-process, by the test harness.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_CUDA_CUPTIBACKEND_H
#define CAPTURE_PROBE_CUDA_CUPTIBACKEND_H

#include "capture_probe/EventLog.h"
#include <string>

namespace capture_probe {

/// Starts recording into \p Sink (which must outlive the process or the
/// next stopCupti). Idempotent: a second call only swaps the sink. Returns
/// false and sets \p Error if CUPTI refuses (another subscriber, no driver).
bool startCupti(EventSink *Sink, std::string &Error);
void setCuptiSink(EventSink *Sink);

} // namespace capture_probe

#endif // CAPTURE_PROBE_CUDA_CUPTIBACKEND_H
