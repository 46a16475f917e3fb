//===- PyFiles.h - Reading Python sources from disk -------------*- C++ -*-===//
//
// Python sources come from package walks and imports, where anything may
// sit under a .py name: a FIFO (a plain read blocks forever), a symlink to
// /dev/zero (reads until memory runs out), an unreadable directory, a path
// longer than PATH_MAX. Sources are read only as bounded regular files, and
// what cannot be read is said, never silently skipped. Old-Mac line endings
// (a lone CR) become LF, byte for byte, so offsets stay those of the file.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_PYTHON_PYFILES_H
#define CAPTURE_LINT_PYTHON_PYFILES_H

#include "llvm/Support/Error.h"

#include <string>

namespace capture_lint::python {

/// No Python source comes near this.
constexpr uint64_t MaxPythonSourceBytes = 256u << 20;

/// The text of the Python source \p Path, or an error naming it and saying
/// why it cannot be read.
llvm::Expected<std::string> readPythonSource(const std::string &Path);

/// \p Text with each CR that does not start a CRLF turned into LF.
void normalizeLineEndings(std::string &Text);

} // namespace capture_lint::python

#endif // CAPTURE_LINT_PYTHON_PYFILES_H
