//===- SummaryCache.h - Per-TU results on disk ------------------*- C++ -*-===//
//
// What analysing one translation unit produced (its findings, errors and
// whole-program summary) is stored in a cache directory, one JSON file per
// TU, keyed by a hash of the file's path, its compile command, the checks
// and catalogs in effect and the tool's version. Each entry lists every file
// the TU read (sources, headers, .capture-lint.json) with a content hash; an
// entry is used only when all of them still hash the same, so touching a
// header re-analyses exactly the TUs that include it. Entries are written
// atomically (a temporary file, then a rename), so parallel runs and
// distributed builds may share a directory; an unreadable entry is a miss.
//
// Paths under the cache's root (the checkout's top, where the run knows
// it) are written relative to it, in keys and entries, and put back under
// the reading run's root: checkouts of one project at different paths, and
// machines, share a cache directory, each entry still used only when the
// files it read have the same contents under the reader's root.
//
// An entry is untrusted input: it holds its key and a digest of its
// contents, and is a miss unless both match (another TU's entry copied or
// linked into place, an entry edited by hand); a fix in it must land in a
// file the entry depends on. The digest is no signature: a cache directory
// shared between users must be writable only by trusted ones.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_SUMMARYCACHE_H
#define CAPTURE_LINT_TOOL_SUMMARYCACHE_H

#include "FileSnapshot.h"
#include "Report.h"
#include "capture_lint/Summary.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <nlohmann/json_fwd.hpp>

#include <mutex>
#include <optional>

namespace capture_lint {

/// Everything a run needs from one TU.
struct UnitResult {
  std::vector<ReportFinding> Findings;
  std::vector<ReportError> Errors;
  TuSummary Summary;
  /// The files it read, by absolute path, as it read them (a snapshot
  /// without a hash is hashed when the entry is stored).
  FileSnapshots Deps;
};

class SummaryCache {
public:
  /// \p Root: the absolute directory paths are kept relative to ("": none).
  explicit SummaryCache(std::string Dir, std::string Root = "")
      : Dir(std::move(Dir)), Root(std::move(Root)) {}

  const std::string &dir() const { return Dir; }

  /// The key of a TU: everything but file contents that changes results,
  /// with \p Root in paths and arguments written as a placeholder.
  static std::string key(llvm::StringRef File,
                         const std::vector<std::string> &CommandLine,
                         llvm::StringRef Directory, llvm::StringRef Settings,
                         llvm::StringRef Root = "");

  /// The entry for \p Key when every file it depends on is unchanged.
  std::optional<UnitResult> load(const std::string &Key);
  /// Every intact entry whose files are unchanged, whatever its key: for
  /// an editor, which has no compile command to key by and wants the
  /// summaries of the program's other files as the last run left them.
  std::vector<UnitResult> loadAll();
  /// Stores an entry; an error is returned, never thrown.
  llvm::Error store(const std::string &Key, const UnitResult &U);

  /// For tests and fuzzing: \p Entry (JSON text) with the key and digest
  /// store() would give it for \p Key; "" if it is not a JSON object.
  static std::string seal(llvm::StringRef Entry, const std::string &Key);

private:
  std::optional<FileSnapshot> snapshot(const std::string &Path);
  std::optional<UnitResult> fromJson(nlohmann::json J, const std::string &Key);

  std::string Dir, Root;
  std::mutex Mutex;
  llvm::StringMap<std::optional<FileSnapshot>> Snapshots; // per run
};

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_SUMMARYCACHE_H
