//===- PyprojectConfig.h - [tool.capture-lint] of pyproject -----*- C++ -*-===//
//
// Python projects keep their linters' settings in pyproject.toml (ruff's
// [tool.ruff], mypy's [tool.mypy]); capture-lint reads [tool.capture-lint]
// from the pyproject.toml of the current directory or the nearest one above
// it. Keys (command-line options win over them):
//   exclude = ["tests/*", "*_pb2.py"]     --exclude, added to
//   checks = "capture-*,-capture-shape-branch"   --checks
//   max-call-depth = 8                    --max-call-depth
//   catalog = ["tools/our-apis.json"]     --catalog, relative to the file
// Only what these keys need of TOML is read: strings, integers and arrays of
// strings (over several lines too), comments. Anything else in the table,
// an unknown key or a malformed value is an error naming the file and line.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_PYPROJECTCONFIG_H
#define CAPTURE_LINT_TOOL_PYPROJECTCONFIG_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace capture_lint {

struct PyprojectConfig {
  std::string Path; // the pyproject.toml read; empty when none has the table
  std::vector<std::string> Exclude, Catalogs;
  std::optional<std::string> Checks;
  std::optional<unsigned> MaxCallDepth;
};

/// The [tool.capture-lint] table of \p Text (the file \p Path).
llvm::Expected<PyprojectConfig> parsePyprojectConfig(llvm::StringRef Text,
                                                     llvm::StringRef Path);

/// The table of the nearest pyproject.toml at or above \p Dir that has one
/// (an empty config when none does).
llvm::Expected<PyprojectConfig> findPyprojectConfig(llvm::StringRef Dir);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_PYPROJECTCONFIG_H
