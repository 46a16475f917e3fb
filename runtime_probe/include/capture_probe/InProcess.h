//===- InProcess.h - What backends need in-process ----------- -*- C++ -*-===//
//
// Shared by the CUPTI and HIP backends: the kernel thread id, a global event
// sequence, and the set of streams now capturing (so calls made while
// nothing captures cost one atomic load). Call stacks: CallStack.h.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_INPROCESS_H
#define CAPTURE_PROBE_INPROCESS_H

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace capture_probe {

uint64_t currentThreadId();
uint64_t nextSequence();

/// Changes whenever a library is loaded or unloaded (the dynamic linker's
/// counts of both), so that what was learnt about addresses can be dropped.
uint64_t moduleGeneration();

/// Streams with a capture begun and not yet ended, process-wide.
class ActiveCaptures {
public:
  void begin(uint64_t Stream);
  /// Returns whether \p Stream was capturing.
  bool end(uint64_t Stream);
  bool any() const { return Count.load(std::memory_order_relaxed) > 0; }
  bool contains(uint64_t Stream) const;
  /// The streams now capturing.
  std::vector<uint64_t> streams() const;

private:
  std::atomic<int> Count{0};
  mutable std::atomic_flag Lock = ATOMIC_FLAG_INIT;
  std::vector<uint64_t> Streams;
};

/// The first capture begun at each call chain, while it lasts: its cleanly
/// captured calls keep their stacks too, so that a report shows how far the
/// capture went (capture-lint --confirm: "went on past line 57"); a later
/// capture begun at the same chain does not (a capture-heavy loop pays
/// once).
class FirstCaptures {
public:
  /// A capture of \p Stream begun at \p Frames.
  void begin(uint64_t Stream, const std::vector<std::string> &Frames);
  void end(uint64_t Stream) { Open.end(Stream); }
  /// Whether such a first capture is open.
  bool any() const { return Open.any(); }

private:
  ActiveCaptures Open; // the first captures not yet ended
  std::atomic_flag Lock = ATOMIC_FLAG_INIT;
  std::vector<std::string> Seen; // the chains begun at, joined
};

} // namespace capture_probe

#endif // CAPTURE_PROBE_INPROCESS_H
