//===- PythonLsp.h - capture-lint --lsp: diagnostics for Python --*- C++ -*-=//
//
// A small Language Server over stdio for editors: it publishes capture-lint's
// findings as diagnostics for the .py documents the editor opens and edits
// (full-text sync), analysing the unsaved text. C++ files are served by
// capture-clangd; other documents get no diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_PYTHONLSP_H
#define CAPTURE_LINT_TOOL_PYTHONLSP_H

#include "Runner.h"

#include <istream>
#include <ostream>

namespace capture_lint {

/// Serves until `exit` or the end of \p In. Returns the process exit status
/// (0 after shutdown, 1 otherwise, as the protocol asks).
int serveLsp(const RunConfig &Config, std::istream &In, std::ostream &Out);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_PYTHONLSP_H
