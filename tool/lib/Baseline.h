//===- Baseline.h - Adopting capture-lint on code with old findings -*- C++ -*-===//
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

/// The baseline document for \p R, to be written to \p Path.
std::string baselineJson(const Report &R, const std::string &Path);

/// Removes the findings of \p R that the baseline at \p Path records.
/// Returns how many were removed; an unreadable or malformed baseline is an
/// error naming the file.
llvm::Expected<unsigned> applyBaseline(Report &R, const std::string &Path);

} // namespace capture_lint

#endif
