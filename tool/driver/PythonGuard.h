//===- PythonGuard.h - Python nesting that cannot kill a run ---*- C++ -*-===//
//
// The Python walker recurses once per nesting level, so a generated literal
// of 10,000 nested brackets overflows an ordinary 8 MB stack and would take
// the whole run (or the language server) down with SIGSEGV. As for C++
// (LargeStack.h), the analysis runs on a thread with a large stack, and what
// still overflows it is caught: the files are then analysed one by one to
// find those that cannot be, each becomes an error naming it, and the
// others are analysed together again without them.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_PYTHONGUARD_H
#define CAPTURE_LINT_TOOL_PYTHONGUARD_H

#include "capture_lint/python/PyAnalysis.h"

namespace capture_lint {

/// python::analyzePython, with files too deeply nested to analyse (or that
/// crash it) left out and reported in the result's Errors.
python::PyResult analyzePythonGuarded(const std::vector<std::string> &Files,
                                      const Catalog &Cat,
                                      const python::PyOptions &Opts);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_PYTHONGUARD_H
