//===- SafeWrite.h - Writing a user's file, never damaging it ---*- C++ -*-===//
//
// Every file capture-lint writes (the report with -o, baselines, exported
// fixes, cache entries, sources changed by --fix) goes through here:
//   - the text goes to a uniquely named temporary file beside the target,
//     which is removed again on any error and on SIGINT/SIGTERM, and is
//     renamed over the target only when completely written: a reader never
//     sees half a file, a full disk leaves the old file as it was;
//   - a symlink is written through to its target, and the target keeps its
//     mode and owner;
//   - in-place edits (--fix) refuse files that are not writable and files
//     with several hard links (a rename would split them);
//   - a device or a pipe (/dev/stdout) is written directly;
//   - errors come back as llvm::Error naming the path, never as LLVM's
//     "IO failure" abort.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_SAFEWRITE_H
#define CAPTURE_LINT_TOOL_SAFEWRITE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace capture_lint {

enum class WriteKind {
  /// A file capture-lint produces (report, baseline, cache entry).
  Output,
  /// An existing source file edited in place (--fix): its identity (links,
  /// mode, owner) must survive, or it is left alone.
  InPlaceEdit,
  /// A file only capture-lint reads (a cache entry): whatever is there, a
  /// symlink, a FIFO or a device, is replaced, never followed.
  Private,
};

/// Writes \p Text to \p Path atomically. The error names the path.
llvm::Error writeFileSafely(const std::string &Path, llvm::StringRef Text,
                            WriteKind Kind = WriteKind::Output);

/// Writes \p Text to standard output; an error (a closed pipe, a full
/// disk) is returned instead of aborting at exit.
llvm::Error writeStdout(llvm::StringRef Text);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_SAFEWRITE_H
