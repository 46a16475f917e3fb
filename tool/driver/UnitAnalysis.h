//===- UnitAnalysis.h - One translation unit, one analysis ------*- C++ -*-===//
//
// The CLI's per-TU phase: parses one file with its compile command and runs
// one CaptureAnalyzer over it, which gives both the findings (as the report
// has them, UnitFindings.h) and, for whole-program runs, the TU's summary.
// No clang-tidy engine and no side channels: settings go in, results come
// out.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_UNITANALYSIS_H
#define CAPTURE_LINT_TOOL_UNITANALYSIS_H

#include "FileSnapshot.h"
#include "Report.h"
#include "SourceText.h"

#include "capture_lint/CaptureSettings.h"
#include "capture_lint/Catalog.h"
#include "capture_lint/Summary.h"

#include "clang/Tooling/CompilationDatabase.h"

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace capture_lint {

struct UnitSettings {
  /// The options of the file's configuration; an error there stops the
  /// analysis and is reported at the top of the file.
  CaptureSettings Settings;
  std::shared_ptr<const Catalog> Cat; // null after an error in Settings
  /// The checks the file's configuration enables.
  std::set<std::string> Enabled;
  /// Whole-program runs: summarise the TU (and record its calls into other
  /// files), with the roles it imports from other files.
  bool Summarize = false;
  std::shared_ptr<const RoleImports> Imports;
};

struct UnitAnalysis {
  std::vector<ReportFinding> Findings;
  std::vector<ReportError> Errors;
  bool ParseError = false; // the compiler reported an error
  TuSummary Summary;
  FileSnapshots Deps; // the files the TU read
};

/// Analyses \p File (absolute) with its command in \p DB. \p Sources reads
/// the lines of the findings' files.
void analyzeUnit(const std::string &File,
                 const clang::tooling::CompilationDatabase &DB,
                 const UnitSettings &Settings, SourceFiles &Sources,
                 UnitAnalysis &Out);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_UNITANALYSIS_H
