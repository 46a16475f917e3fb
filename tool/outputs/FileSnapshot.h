//===- FileSnapshot.h - A file as the analysis read it ----------*- C++ -*-===//
//
// Findings and fixes are about the text the analysis read, which may no
// longer be what a file holds when the report is written: an editor saves,
// `git checkout` runs, another `--fix` gets there first, the path becomes a
// symlink to some other file. A snapshot keeps what identifies that text (a
// content hash) and that file (device and inode), so --fix edits a file only
// while both still hold (FixGuard.h), and the output guard knows every file
// the run read (OutputGuard.h).
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_FILESNAPSHOT_H
#define CAPTURE_LINT_TOOL_FILESNAPSHOT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem/UniqueID.h"

#include <map>
#include <optional>
#include <string>

namespace capture_lint {

/// The hash capture-lint keeps of a file's text (cache entries, --fix).
std::string contentHash(llvm::StringRef Text);

struct FileSnapshot {
  /// contentHash of the text read; empty when not known.
  std::string Hash;
  /// The file read (device and inode), when known.
  std::optional<llvm::sys::fs::UniqueID> Id;
  /// Its modification time (seconds) when it was opened, when known: a file
  /// rewritten in place while a mapped buffer of it was parsed may hash as
  /// the new text, but its time tells.
  std::optional<int64_t> MTime;
  /// Read more than once during the run, with different texts or as
  /// different files.
  bool Changed = false;
};

/// Files by absolute path (as the run named them).
using FileSnapshots = std::map<std::string, FileSnapshot>;

/// Adds \p S for \p Path to \p Files; a second snapshot of the same path
/// that disagrees with the first marks it Changed.
void recordSnapshot(FileSnapshots &Files, const std::string &Path,
                    const FileSnapshot &S);

/// A snapshot of what \p Path holds now (if it is a regular file of at most
/// \p MaxBytes, not replaced while it is read); its text in \p Text.
std::optional<FileSnapshot> snapshotNow(const std::string &Path,
                                        uint64_t MaxBytes,
                                        std::string *Text = nullptr);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_FILESNAPSHOT_H
