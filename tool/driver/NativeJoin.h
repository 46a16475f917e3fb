//===- NativeJoin.h - Python capture regions into C++ -----------*- C++ -*-===//
//
// The join across the language boundary. C++ summaries list the functions
// their files bind to names Python calls (TORCH_LIBRARY's operators,
// pybind11 module functions: NativeBindings.h); the Python analysis,
// given those names, reports the calls its regions make to them
// (PyNativeCall). Each such call becomes a region use of the bound C++
// function, which the whole-program phase (WholeProgram.h) follows like a
// call into another translation unit: one finding at the Python call, with
// notes from the region through the binding down to the C++ hazard.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_NATIVEJOIN_H
#define CAPTURE_LINT_TOOL_NATIVEJOIN_H

#include "SourceText.h"
#include "capture_lint/Summary.h"
#include "capture_lint/python/PyAnalysis.h"

#include <set>

namespace capture_lint {

/// The names \p Summaries bind to functions PyTorch may run on CUDA
/// tensors.
std::set<std::string>
boundNames(const std::vector<const TuSummary *> &Summaries);

/// \p Calls as the region uses of one summary: each call's callee is the
/// function its name is bound to (every such function, when several
/// kernels are registered for one operator). The places of their Python
/// locations go to \p Places, so no source needs reading again.
TuSummary nativeUses(const std::vector<python::PyNativeCall> &Calls,
                     const std::vector<const TuSummary *> &Summaries,
                     SourceFiles &Places);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_NATIVEJOIN_H
