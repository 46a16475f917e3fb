//===- CuptiBackend.h - CUDA calls to events via CUPTI ------- -*- C++ -*-===//
//
// Subscribes to CUPTI's runtime and driver API callbacks and to graph-node
// creation, and turns every outermost API call made while a capture is
// active (and every begin, end and capture-mode switch) into an Event for
// the sink; kernel launches reach it through the probe's wrappers of the
// driver's launch entry points instead (LaunchInterposer.h). With
// CAPTURE_PROBE_CALLS=wrappers (what capture-probe run sets by default) it
// never subscribes: every driver call comes through the probe's wrappers
// (DriverInterposer.h). Used by the injection library (CUDA_INJECTION64_PATH)
// and, in-process and with CUPTI, by the test harness.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_CUDA_CUPTIBACKEND_H
#define CAPTURE_PROBE_CUDA_CUPTIBACKEND_H

#include "capture_probe/EventLog.h"
#include <cstdint>
#include <string>
#include <vector>

namespace capture_probe {

/// Starts recording into \p Sink (which must outlive the process or the
/// next stopCupti), through CUPTI unless CAPTURE_PROBE_CALLS=wrappers.
/// Idempotent: a second call only swaps the sink. Returns false and sets
/// \p Error if CUPTI refuses (another subscriber, no driver).
bool startCupti(EventSink *Sink, std::string &Error);
void setCuptiSink(EventSink *Sink);

/// Whether live executable graph \p Exec uses any byte of [Address,
/// Address + Size) (a kernel argument, a copy's or memset's operand): the
/// 1-based index of the node that does, or 0.
unsigned execUsesRange(uint64_t Exec, uint64_t Address, uint64_t Size);

/// A block that \p Exec uses was taken back by a framework's allocator
/// (PyTorch's caching allocator, which never calls cudaFree for a tensor):
/// writes a FreedWhileHeld event ("caching-allocator free", \p PyFrames as
/// its site, the node that uses the block) and marks the graph, so that its
/// next launch is reported. False when the graph uses none of the block or
/// was marked already.
bool noteReleased(uint64_t Exec, uint64_t Address, uint64_t Size,
                  std::vector<std::string> PyFrames);

} // namespace capture_probe

#endif // CAPTURE_PROBE_CUDA_CUPTIBACKEND_H
