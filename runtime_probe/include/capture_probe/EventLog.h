//===- EventLog.h - Where backends put events, and reading them back -*- C++
//-*-===//
//
// Backends write events to an EventSink. The injection library and the HIP
// interposer use a JSON-lines file, written through after every event that
// matters, so a program that aborts in the middle of a capture (CUDA_CHECK
// calling abort() after a capture error is the common case) still leaves a
// complete log; bookkeeping events (clean captured work, graph lifecycle)
// are held per thread and written in batches. The test harness keeps events
// in memory.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_EVENTLOG_H
#define CAPTURE_PROBE_EVENTLOG_H

#include "capture_probe/Event.h"
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

namespace capture_probe {

class EventSink {
public:
  virtual ~EventSink() = default;
  virtual void write(const Event &E) = 0;
  /// An event with nothing to report (work a capture took in cleanly): it
  /// may be held back and written with the thread's next event, saving a
  /// write per call in capture-heavy programs.
  virtual void defer(const Event &E) { write(E); }
};

/// Appends one JSON object per line; thread-safe; flushes every line.
class JsonLinesSink : public EventSink {
public:
  /// Opens \p Path for appending; "%p" in it becomes the process id.
  /// On failure, ok() is false and error() says why.
  explicit JsonLinesSink(const std::string &Path);
  ~JsonLinesSink() override;
  bool ok() const { return File != nullptr; }
  const std::string &path() const { return ResolvedPath; }
  const std::string &error() const { return Error; }
  void write(const Event &E) override;
  /// Held in a per-thread buffer until the thread's next write() (or 64
  /// KiB, or the thread's or the process's exit): a program killed by a
  /// signal loses only such events.
  void defer(const Event &E) override;
  /// Writes the calling thread's held events.
  void flushThread();
  /// Writes every thread's held events (at the process's exit).
  void flushAll();

private:
  /// Writes what threads hold for this sink and forgets it (it is ending):
  /// a thread's buffer then serves whichever sink it writes to next.
  void detach();
  /// Writes what threads hold for this sink; with \p Forget, detaches too.
  void flushHeld(bool Forget);
  void append(std::string &Lines);
  std::mutex Lock;
  std::FILE *File = nullptr;
  std::string ResolvedPath, Error;
};

class MemorySink : public EventSink {
public:
  void write(const Event &E) override;
  std::vector<Event> take();

private:
  std::mutex Lock;
  std::vector<Event> Events;
};

/// The variable capture-probe sets to name the event log ("%p": the pid).
inline constexpr const char *LogPathVariable = "CAPTURE_PROBE_LOG";

/// The process's log, opened once from $CAPTURE_PROBE_LOG (default
/// capture-probe.%p.jsonl) for the injected backends. Null, after one
/// message on stderr, if it cannot be opened.
EventSink *processEventLog();

std::string eventToJsonLine(const Event &E);

/// Reads a JSON-lines event log. A torn last line (the process died while
/// writing it) is dropped; any other malformed line is an error naming the
/// file and line. Returns false and sets \p Error on failure.
bool readEventLog(const std::string &Path, std::vector<Event> &Out,
                  std::string &Error);

} // namespace capture_probe

#endif // CAPTURE_PROBE_EVENTLOG_H
