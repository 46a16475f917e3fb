//===- EventLog.h - Writing and reading event logs ----------- -*- C++ -*-===//
//
// Backends write events to an EventSink. The injection library and the HIP
// interposer use a JSON-lines file that is mapped into memory: a line is in
// the file (the kernel's page cache) as soon as it is copied there, so a
// program that aborts in the middle of a capture (CUDA_CHECK calling abort()
// after a capture error is the common case), or is killed, still leaves every
// line it wrote, and no event costs a system call. The test harness keeps
// events in memory.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_EVENTLOG_H
#define CAPTURE_PROBE_EVENTLOG_H

#include "capture_probe/Event.h"
#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace capture_probe {

class EventSink {
public:
  virtual ~EventSink() = default;
  virtual void write(const Event &E) = 0;
};

/// Appends one JSON object per line to a file; thread-safe. Each distinct
/// native stack is written once, on a line of its own (`{"stack": REF,
/// "frames": [...]}`, REF being "PID.N"), before the first event that
/// names it by `stack_ref`: a capture's calls from one loop share a stack,
/// and a stack is most of a line's bytes. The file grows
/// in windows of a few MiB, each mapped while lines are copied into it; the
/// end of the process (or of the sink) trims it to what was written. A
/// process that died leaves zero bytes after its last line, which
/// readEventLog skips. Where the file cannot be mapped, each line is written
/// with write(2). In a child made by fork() the parent's sinks write nothing:
/// they would write over the parent's lines (and CUDA does not work there).
class JsonLinesSink : public EventSink {
public:
  /// Opens \p Path for appending; "%p" in it becomes the process id.
  /// On failure, ok() is false and error() says why.
  explicit JsonLinesSink(const std::string &Path);
  ~JsonLinesSink() override;
  bool ok() const { return Fd >= 0; }
  const std::string &path() const { return ResolvedPath; }
  const std::string &error() const { return Error; }
  void write(const Event &E) override;
  /// Cuts the file to the lines written (the process is exiting). Lines
  /// written later still land, each followed by a cut of its own.
  void trim();

private:
  /// Copies \p N bytes at the end of the lines, moving the window on as it
  /// fills (Lock held).
  void append(const char *P, size_t N);
  /// Maps the window that starts at file offset \p Start (Lock held).
  bool mapWindow(uint64_t Start);
  /// Whether this process is a child forked after the sink was opened.
  bool inForkedChild() const;
  /// The reference of stack \p Frames; a stack seen for the first time is
  /// first written onto Line, on a line of its own (Lock held).
  const std::string &stackRef(const std::vector<std::string> &Frames);
  std::mutex Lock;
  int Fd = -1;
  char *Window = nullptr; // null: lines go out with write(2)
  uint64_t WindowStart = 0;
  uint64_t End = 0; // the file offset after the last line
  bool Trimmed = false;
  unsigned OpenedAfterForks = 0;
  std::string Line; // the line being formatted (Lock held)
  std::unordered_map<std::string, std::string> StackRefs; // frames -> ref
  std::string StackKey;                                   // (Lock held)
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

/// \p E as one JSON line, its stack written in it (`frames`).
std::string eventToJsonLine(const Event &E);

/// What reading an event log skipped.
struct SkippedLines {
  unsigned Count = 0;
  /// "PATH:N: malformed event (why)" for the first one.
  std::string First;
};

/// Reads a JSON-lines event log. A torn last line (the process died while
/// writing it) is dropped; any other malformed line is skipped and counted
/// in \p Skipped, and the events of the other lines are read: one torn line
/// (a process that died mid-line, then another appending) must not lose
/// the run. Returns false and sets \p Error only when the file cannot be
/// read (missing, not a regular file, too large).
bool readEventLog(const std::string &Path, std::vector<Event> &Out,
                  std::string &Error, SkippedLines *Skipped = nullptr);

/// Like readEventLog, but hands each event to \p Consume as it is read, so
/// that memory does not grow with the log (a run of ten million events).
bool forEachEvent(const std::string &Path,
                  const std::function<void(Event &&)> &Consume,
                  std::string &Error, SkippedLines *Skipped = nullptr);

/// Like forEachEvent, in sequence-number order. Threads write their events
/// a little out of order; up to \p Window events are held back to restore
/// it (an event later than that is handed on where it is found).
bool forEachEventInOrder(const std::string &Path,
                         const std::function<void(Event &&)> &Consume,
                         std::string &Error, SkippedLines *Skipped = nullptr,
                         size_t Window = 4096);

} // namespace capture_probe

#endif // CAPTURE_PROBE_EVENTLOG_H
