//===- EventFolding.h - Identical captured calls as one event --*- C++ -*-===//
//
// A capture-heavy program makes the same call over and over inside its
// captures (a loop of launches), each taken in cleanly: nothing to report,
// and an event each cost the program a line written and the reader a line
// parsed. A CallFolder, one per thread, holds such a call back and counts
// the identical ones that follow it (Event::Repeats), and writes the held
// event when a different event of the thread comes, when it has counted
// MaxRepeats, or when the thread ends. The reader counts a folded event as
// its repeats (CaptureTracker::keepCall), so the report is the same.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_EVENTFOLDING_H
#define CAPTURE_PROBE_EVENTFOLDING_H

#include "capture_probe/Event.h"
#include "capture_probe/EventLog.h"
#include <optional>

namespace capture_probe {

class CallFolder {
public:
  /// The most calls one event stands for: the reader restores the order of
  /// threads' events within a window (forEachEventInOrder), and a held
  /// event is written late by as many calls as it counts.
  static constexpr uint64_t MaxRepeats = 256;

  ~CallFolder();

  /// Whether \p E may be folded: a call that succeeded, made graph nodes and
  /// carries no native stack, no event handle and no fallback mark.
  static bool foldable(const Event &E);
  /// Whether \p B repeats \p A: the same call, thread, stream, kernel, nodes
  /// and Python stack (sequence numbers aside).
  static bool sameCall(const Event &A, const Event &B);

  /// Takes foldable \p E (its sequence number set): counted on the held
  /// event if it repeats it, else the held event is written to its sink and
  /// \p E held for \p Sink.
  void add(Event &&E, EventSink *Sink);
  /// Writes the held event, if any. Every other event of the thread is
  /// written after this, so that the log keeps the thread's order.
  void flush();

private:
  std::optional<Event> Held;
  EventSink *HeldSink = nullptr;
  bool Gone = false; // the thread is ending: nothing is held any more
};

} // namespace capture_probe

#endif // CAPTURE_PROBE_EVENTFOLDING_H
