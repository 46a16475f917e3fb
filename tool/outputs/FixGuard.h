//===- FixGuard.h - Fixing only the text that was analysed -----*- C++ -*-===//
//
// --fix computes replacements (offsets into a file's text) during the
// analysis and writes them afterwards. Between the two the file may have
// been saved by an editor, replaced by a symlink to another file, or fixed
// by another capture-lint run: the offsets then point into some other text
// and the edit would damage it. So before anything is written, --fix takes
// an exclusive lock on the directory of every file it edits (concurrent
// --fix runs take turns; the lock is released when the run is done), and
// under the lock checks that each file is still the text the run analysed
// (its content hash) and the same file (device and inode), and that the run
// read it at all (a fix from a damaged cache entry may name any file).
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_FIXGUARD_H
#define CAPTURE_LINT_TOOL_FIXGUARD_H

#include "FileSnapshot.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace capture_lint {

/// Exclusive advisory locks (flock) on the directories of some files, held
/// until destruction. Another process holding one is waited for, up to a
/// limit.
class DirectoryLocks {
public:
  DirectoryLocks() = default;
  DirectoryLocks(const DirectoryLocks &) = delete;
  DirectoryLocks &operator=(const DirectoryLocks &) = delete;
  ~DirectoryLocks();

  /// Locks the directories of \p Files, in a fixed order (no deadlock
  /// between two runs). The error names the directory that could not be
  /// locked; the locks taken so far stay held.
  llvm::Error lock(const std::vector<std::string> &Files,
                   unsigned TimeoutSeconds = 60);

private:
  std::vector<int> FDs;
};

/// The text of \p File (a resolved path) when it is still what this run
/// analysed under each of the names in \p Names; otherwise an error that
/// names the file and says what changed. \p Read: the run's files.
llvm::Expected<std::string>
textAsAnalysed(const std::string &File, const std::vector<std::string> &Names,
               const FileSnapshots &Read);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_FIXGUARD_H
