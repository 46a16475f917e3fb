//===- Baseline.h - Adopting on code with old findings ------- -*- C++ -*-===//
//
// A baseline records the findings a codebase has today, so CI can fail only
// on new ones. A finding is keyed by its check, its file (relative to the
// baseline's directory, so clones elsewhere match), the trimmed text of its
// source line, and its message; never by line number, so unrelated edits
// that move code do not make old findings new. Identical keys are counted.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_BASELINE_H
#define CAPTURE_LINT_TOOL_BASELINE_H

#include "Report.h"
#include "llvm/Support/Error.h"

namespace capture_lint {

/// What identifies a finding across edits that move code: its check, its
/// file relative to \p Dir, the trimmed text of its line and its message
/// without locations, joined with NULs. Baselines count these keys; SARIF's
/// partialFingerprints hash them.
std::string stableFindingKey(const ReportFinding &F, const std::string &Dir);

/// \p File relative to \p Dir when it lies below it, else \p File.
std::string relativeTo(const std::string &File, const std::string &Dir);

/// The baseline document for \p R, to be written to \p Path.
std::string baselineJson(const Report &R, const std::string &Path);

/// Removes the findings of \p R that the baseline at \p Path records.
/// Returns how many were removed; an unreadable or malformed baseline is an
/// error naming the file.
llvm::Expected<unsigned> applyBaseline(Report &R, const std::string &Path);

} // namespace capture_lint

#endif
