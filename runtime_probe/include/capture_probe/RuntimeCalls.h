//===- RuntimeCalls.h - The runtime call a driver call was for -*- C++ -*-===//
//
// Without CUPTI (CAPTURE_PROBE_CALLS=wrappers) the probe sees the driver
// calls the CUDA runtime makes (cuMemAlloc_v2), not the runtime calls the
// program made (cudaMalloc). The program's call is on the driver call's
// stack: the outermost frame of a runtime API function before the program's
// own code. Read from the symbolized stack when the report is made (the
// static runtime's functions are named only in the program's symbol table),
// before the calls are classified, so that a call is named and classified as
// the program wrote it. A call without a stack (clean captured work after
// the first capture at a site keeps none) is named after the calls with one
// that the runtime made at the same place (Event::Caller).
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_RUNTIMECALLS_H
#define CAPTURE_PROBE_RUNTIMECALLS_H

#include "capture_probe/Event.h"
#include "capture_probe/Report.h"
#include "capture_probe/Symbolizer.h"
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace capture_probe {

/// The runtime API function \p Function names ("cudaMalloc" for
/// "cudaMalloc", for "cudaMalloc<float>(float**, unsigned long)" of
/// cuda_runtime.h), if it is one.
std::optional<std::string> runtimeApiName(const std::string &Function);

/// The runtime call a stack (source frames, innermost first) was made in:
/// the outermost runtime API function before the first frame of the
/// program's own code.
std::optional<std::string>
runtimeCallOf(const std::vector<SourceFrame> &Frames);

/// Names \p E (a driver call the runtime made, with its stack resolved in
/// \p S) after the program's runtime call, keeping the driver function in
/// DriverApi. False, \p E unchanged, if the stack names none.
bool nameRuntimeCall(const Symbolizer &S, Event &E);

/// The runtime calls of one process's driver calls: from each call's stack,
/// else from the place in the runtime it was made at, learnt from the calls
/// with a stack made there (a place where two runtime calls were seen names
/// neither).
class RuntimeCallNames {
public:
  /// Learns from a driver call the runtime made at \p Caller, with stack
  /// \p Frames (resolved in \p S).
  void learn(const Symbolizer &S, uint64_t Caller,
             const std::vector<std::string> &Frames);
  /// Names \p E as nameRuntimeCall does, or, without a stack, after its
  /// Caller. False, \p E unchanged, if neither names it.
  bool name(const Symbolizer &S, Event &E) const;

private:
  /// The runtime call made at each place; none: more than one.
  std::map<uint64_t, std::optional<std::string>> ByCaller;
};

} // namespace capture_probe

#endif // CAPTURE_PROBE_RUNTIMECALLS_H
