//===- SummaryFile.h - One file's results, hermetic, for `link` -*- C++ -*-===//
//
// What `capture-lint summarize` writes for one source file and `capture-lint
// link` reads: the file's findings and errors and its whole-program summary
// (functions by USR with the hazards they reach, the calls its regions make
// into other files, the roles it exports, the bodiless calls it makes), in
// the JSON shape checks/schemas/summary-file.schema.json describes.
//
// A summary is a build action's output, so it is hermetic: every path under
// the root (`--root`, like -fdebug-prefix-map) is written relative to it,
// records are sorted, and nothing depends on time or on where the checkout
// is; the same inputs at two checkout paths give the same bytes. Reading
// puts paths back under the root the link step is given.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_SUMMARYFILE_H
#define CAPTURE_LINT_TOOL_SUMMARYFILE_H

#include "SummaryCache.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace capture_lint {

/// One summary as read: the source file it describes (absolute) and its
/// results.
struct SummaryFileContents {
  std::string Source;
  UnitResult Unit;
  /// The USRs of the functions whose roles (from other files' summaries)
  /// the analysis imported, sorted.
  std::vector<std::string> ImportedRoles;
  /// The line, column and text of every location the summary holds, so
  /// that the link step reads no source.
  std::vector<SourcePlace> Places;
  /// A Python module's summary: its text (lone CRs made LFs). The Python
  /// analysis is whole-program, so it runs in the link step, over the
  /// texts of every Python summary linked.
  std::optional<std::string> PythonText;
};

/// The places of every location \p S holds, read from the files.
std::vector<SourcePlace> placesOf(const TuSummary &S);

/// The summary \p S, with paths under \p Root (absolute) relative to it:
/// the file's bytes.
std::string summaryFileText(const SummaryFileContents &S, llvm::StringRef Root);

/// Reads the summary at \p Path, its relative paths put under \p Root. An
/// error names the file and says what is wrong with it (not a summary,
/// another format version, another capture-lint version, a damaged one).
llvm::Expected<SummaryFileContents> readSummaryFile(const std::string &Path,
                                                    llvm::StringRef Root);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_SUMMARYFILE_H
