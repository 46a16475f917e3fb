//===- Delivery.h - What a run does with its report -------------*- C++ -*-===//
//
// After the analysis (a lint run) or the link step: the configured filters,
// the baseline, the runtime verdicts, the report in its format, fixes, the
// warnings and the summary line, and the exit status (also written to
// --exit-code-file for build systems).
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_CLI_DELIVERY_H
#define CAPTURE_LINT_CLI_DELIVERY_H

#include "Options.h"
#include "Report.h"

#include "clang-tidy/ClangTidyOptions.h"

#include <string>
#include <vector>

namespace capture_lint {

/// Writes the report (or a baseline, the fixes) to \p Path, or to stdout
/// for "" and "-"; see SafeWrite.h. False after saying why it could not.
bool writeOutput(const std::string &Path, const std::string &Text);

/// Whether no output \p O asks for is one of \p Inputs (if one is, says
/// so).
bool outputsSpareInputs(const Options &O,
                        const std::vector<std::string> &Inputs);

/// \p Code, after writing it to --exit-code-file when one is given: then
/// findings (1) exit 0, as build systems want of an action whose result is
/// kept; 2 when that file cannot be written.
int exitWith(const Options &O, int Code);

/// Everything after the analysis, ending in the run's exit status: 0
/// clean, 1 findings, 2 the tool could not do its job.
int deliverReport(Report &R, const Options &O,
                  const clang::tidy::ClangTidyGlobalOptions &LineFilter);

} // namespace capture_lint

#endif // CAPTURE_LINT_CLI_DELIVERY_H
