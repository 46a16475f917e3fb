//===- Paths.h - Absolute paths as the driver compares them -----*- C++ -*-===//

#ifndef CAPTURE_LINT_TOOL_PATHS_H
#define CAPTURE_LINT_TOOL_PATHS_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace capture_lint {

/// \p Path made absolute against \p Base (the working directory when
/// empty), with `.` and `..` removed.
std::string absolutePath(llvm::StringRef Path, llvm::StringRef Base = "");

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_PATHS_H
