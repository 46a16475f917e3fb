//===- PythonRunner.h - Python inputs through the same report ---*- C++ -*-===//
//
// capture-lint's command line takes .py files and directories (walked for
// .py files) beside C++ sources. This runs the Python front end
// (checks/python) over them and adds its findings to the run's Report, in
// the same records the text, JSON and SARIF writers and baselines read.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_PYTHONRUNNER_H
#define CAPTURE_LINT_TOOL_PYTHONRUNNER_H

#include "Report.h"
#include "Runner.h"

namespace capture_lint {

/// Whether the input \p Path goes to the Python front end: a .py file, or a
/// directory (whose .py files are analysed).
bool isPythonInput(llvm::StringRef Path);

/// Analyses \p Inputs (absolute .py files and directories) and appends
/// findings and errors to \p R.
void runPython(const std::vector<std::string> &Inputs, const RunConfig &Config,
               Report &R);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_PYTHONRUNNER_H
