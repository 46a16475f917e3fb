//===- Report.h - What one capture-lint run found ---------------*- C++ -*-===//
//
// The result of a run, independent of the output format: findings with
// their notes and region, errors that kept a file from being analysed, and
// warnings about the run itself (dropped flags, files missing from the
// compile database). The text, JSON and SARIF writers all read this.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_REPORT_H
#define CAPTURE_LINT_TOOL_REPORT_H

#include "FileSnapshot.h"

#include "capture_lint/Finding.h"

#include "llvm/ADT/ArrayRef.h"

#include "llvm/Support/raw_ostream.h"
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace capture_lint {

/// What the runtime probe says of a finding (capture-lint --confirm).
struct ReportVerdict {
  std::string Status; // confirmed, not-confirmed, not-reached
  std::string Reason;
  std::string EvidenceApi, EvidenceClasses;
  std::string EvidenceFile;
  unsigned EvidenceLine = 0;
};

/// A problem the probe saw during a capture that no finding covers.
struct ReportMissed {
  SourcePlace Loc;
  std::string Api, Classes, Message;
};

/// A finding of either analysis, with what --confirm adds.
struct ReportFinding : Finding {
  ReportFinding() = default;
  /// A finding an analysis returned, without a verdict yet.
  explicit ReportFinding(Finding F) : Finding(std::move(F)) {}
  bool HasVerdict = false;
  ReportVerdict Verdict;
};

struct ReportError {
  SourcePlace Loc; // File may be set without a line
  std::string Message;
};

struct Report {
  std::vector<ReportFinding> Findings;
  std::vector<ReportError> Errors;
  std::vector<std::string> Warnings;
  /// The cache could not be written (a full disk, a read-only directory):
  /// the findings stand, but the run exits 2 so the broken cache is seen.
  std::vector<std::string> CacheErrors;
  unsigned FilesAnalyzed = 0;
  /// The source files analysed (C++ translation units and Python files), in
  /// the order of the run, for the filters that depend on each file's
  /// configuration.
  std::vector<std::string> AnalyzedFiles;
  unsigned FilesFromCache = 0; // of FilesAnalyzed, taken from the cache
  /// Other files of the compile database analysed for their summaries only
  /// (with -p and FILEs, where the cache had none).
  unsigned OtherFilesSummarized = 0;
  /// Of FilesAnalyzed, those analysed again with the roles of functions
  /// other files define (RoleImport.h).
  unsigned FilesWithImportedRoles = 0;
  /// Every file the analysis read (sources, headers, configuration, Python
  /// modules), as it read it: --fix edits only these, and only while they
  /// are unchanged; no output may replace one.
  FileSnapshots FilesRead;
  /// Filled by --confirm.
  bool Confirmed = false;
  std::vector<ReportMissed> Missed;

  /// Findings that fail the run (errors and warnings, not remarks), and
  /// what the probe saw that no finding covers.
  unsigned failingFindings() const;

  /// Adds \p F unless the same finding (check, place, message) is in: a
  /// header's finding comes from every TU that includes it.
  void addFinding(ReportFinding F);

private:
  std::set<std::tuple<std::string, std::string, unsigned, std::string>>
      FindingKeys;
};

/// The checks capture-lint knows, with one-line descriptions (SARIF rules).
struct CheckInfo {
  const char *Name;
  const char *Description;  // one sentence
  const char *Why;          // what happens under capture
  const char *Fix;          // what to do instead
  const char *DefaultLevel; // SARIF level in a global-mode capture
};
llvm::ArrayRef<CheckInfo> allChecks();

/// clang's text format; \p Color: clang's colours (bold locations, red
/// errors, magenta warnings, bold black notes, blue remarks, green carets).
void writeText(const Report &R, llvm::raw_ostream &OS, bool Color = false);
void writeJson(const Report &R, llvm::raw_ostream &OS);
/// \p SourceRoot: the directory %SRCROOT% stands for (relative URIs start
/// there); empty: the current directory.
void writeSarif(const Report &R, llvm::raw_ostream &OS,
                const std::string &SourceRoot = "");
/// GitHub Actions workflow commands (`::error file=...::...`).
void writeGithub(const Report &R, llvm::raw_ostream &OS);

/// Gives every finding a runtime verdict from a capture-probe report and
/// lists what the probe saw that no finding covers. Returns an error
/// message, or "" on success.
std::string confirmWithProbe(Report &R, const std::string &ProbeReportPath);

/// The findings' fixes as clang-tidy's export-fixes YAML (for
/// clang-apply-replacements).
std::string fixesAsYaml(const Report &R);

/// What --fix did.
struct FixOutcome {
  unsigned Applied = 0;      // replacements written
  unsigned FilesChanged = 0; // files written
  /// Findings (indices into Report::Findings) whose every fix was written.
  std::vector<size_t> FixedFindings;
  /// Files that could not be read or written, each with the reason: the
  /// tool did not do its job for them.
  std::vector<std::string> Failures;
};

/// Applies every finding's fixes to the files (see SafeWrite.h for how a
/// file is replaced), all or none: only when every file is still what the
/// run analysed (FixGuard.h). Conflicting replacements are skipped with a
/// warning in \p Warnings.
FixOutcome applyFixes(const Report &R, std::vector<std::string> &Warnings);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_REPORT_H
