//===- RuntimeCalls.h - The runtime call a driver call was for -*- C++ -*-===//
//
// Without CUPTI (CAPTURE_PROBE_CALLS=wrappers) the probe sees the driver
// calls the CUDA runtime makes (cuMemAlloc_v2), not the runtime calls the
// program made (cudaMalloc). The program's call is on the driver call's
// stack: the outermost frame of a runtime API function before the program's
// own code. Read from the symbolized stack when the report is made (the
// static runtime's functions are named only in the program's symbol table),
// before the calls are classified, so that a call is named and classified as
// the program wrote it.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_RUNTIMECALLS_H
#define CAPTURE_PROBE_RUNTIMECALLS_H

#include "capture_probe/Event.h"
#include "capture_probe/Report.h"
#include "capture_probe/Symbolizer.h"
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

} // namespace capture_probe

#endif // CAPTURE_PROBE_RUNTIMECALLS_H
