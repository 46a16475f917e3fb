//===- Excludes.h - The inputs --exclude leaves out -------------*- C++ -*-===//
//
// `--exclude=GLOB` (repeatable) leaves out the files and directories whose
// path or name matches GLOB, as other linters' --exclude does: `tests/*`,
// `*_pb2.py`, `third_party`. It applies to the files of a directory walk,
// to the files of a compile database, and to files given by name.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_EXCLUDES_H
#define CAPTURE_LINT_TOOL_EXCLUDES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/GlobPattern.h"

#include <string>
#include <vector>

namespace capture_lint {

class Excludes {
public:
  /// The patterns, or an error naming the first that is not a glob.
  static llvm::Expected<Excludes> create(const std::vector<std::string> &Globs);

  /// Whether \p Path (as given, or found in a walk) is left out: a pattern
  /// matches the path (from the current directory when it lies below it)
  /// or a trailing part of it at a '/', its last component included.
  bool excludes(llvm::StringRef Path) const;
  bool empty() const { return Patterns.empty(); }

private:
  std::vector<llvm::GlobPattern> Patterns;
};

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_EXCLUDES_H
