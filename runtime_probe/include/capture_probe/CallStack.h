//===- CallStack.h - The call stack of the current API call -----*- C++ -*-===//
//
// Backends record where each reported call was made: the return addresses of
// the current call, described as "module+0xoffset" (the symbolizer turns them
// into file:line offline). Unwinding costs a few microseconds per stack, the
// dearest part of an event; programs that capture in a loop make the same
// calls from the same place thousands of times, so a thread's call chains
// are remembered and recognised in place the next time.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_CALLSTACK_H
#define CAPTURE_PROBE_CALLSTACK_H

#include <cstdint>
#include <string>
#include <vector>

namespace capture_probe {

/// Return addresses of the current call, innermost first, as
/// "module+0xoffset" relative to each module's load bias, leaving out the
/// frames of the probe itself, CUPTI and the CUDA driver. The same as a
/// fresh unwind gives, whether or not the chain was unwound before.
std::vector<std::string> captureFrames(unsigned MaxFrames = 48);

/// How many stacks were unwound, and how many were recognised as a chain
/// the thread had been through and not unwound (process-wide).
struct CallStackCounts {
  uint64_t Unwound = 0;
  uint64_t Reused = 0;
};
CallStackCounts callStackCounts();

} // namespace capture_probe

#endif // CAPTURE_PROBE_CALLSTACK_H
