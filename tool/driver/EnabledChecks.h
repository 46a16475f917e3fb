//===- EnabledChecks.h - Which checks a --checks glob turns on --*- C++ -*-===//
//
// The checks of the registry (C++ and Python alike) that a clang-tidy style
// glob enables. Its own file because capture-clangd's Python side needs it
// without the rest of the driver (which links clang's shared library, while
// capture-clangd links clangd's static one).
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_ENABLEDCHECKS_H
#define CAPTURE_LINT_TOOL_ENABLEDCHECKS_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace capture_lint {

/// The checks \p Glob enables, sorted by name.
std::vector<std::string> enabledChecks(llvm::StringRef Glob);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_ENABLEDCHECKS_H
