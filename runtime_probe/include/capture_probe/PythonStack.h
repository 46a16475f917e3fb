//===- PythonStack.h - The Python frames of the current call ----*- C++ -*-===//
//
// For programs run by CPython (PyTorch scripts), a CUDA call's native stack
// ends in the interpreter; the user's line is a Python frame. This reads the
// calling thread's Python stack through the C API found in the process
// (dlsym: nothing is linked), when the thread holds the GIL (reading frames
// without it is unsafe). Outside Python, or without the GIL, it is empty.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_PYTHONSTACK_H
#define CAPTURE_PROBE_PYTHONSTACK_H

#include <string>
#include <vector>

namespace capture_probe {

/// The thread's Python frames, innermost first, as "file:line:function",
/// leaving out the interpreter's own and installed packages' frames (the
/// user's code is what is left). At most \p Max frames.
std::vector<std::string> pythonStack(unsigned Max = 6);

/// Whether a Python source file is library code: installed packages, the
/// standard library, frozen modules and generated code, and the probe's own
/// start-up hook (capture_probe_python/).
bool isLibraryPythonFile(const std::string &File);

/// Python frames given as text, one "file:line:function" a line, innermost
/// first: the user's (isLibraryPythonFile), at most \p Max.
std::vector<std::string> userPythonFrames(const std::string &Lines,
                                          unsigned Max = 6);

} // namespace capture_probe

#endif // CAPTURE_PROBE_PYTHONSTACK_H
