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

/// Streams with a capture begun and not yet ended, process-wide.
class ActiveCaptures {
public:
  void begin(uint64_t Stream);
  /// Returns whether \p Stream was capturing.
  bool end(uint64_t Stream);
  bool any() const { return Count.load(std::memory_order_relaxed) > 0; }
  bool contains(uint64_t Stream) const;

private:
  std::atomic<int> Count{0};
  mutable std::atomic_flag Lock = ATOMIC_FLAG_INIT;
  std::vector<uint64_t> Streams;
};

} // namespace capture_probe

#endif // CAPTURE_PROBE_INPROCESS_H
