//===- WholeProgram.h - Resolve calls across translation units --*- C++ -*-===//
//
// The second phase of the whole-program analysis. Given the summaries of
// every translation unit (capture_lint/Summary.h), it indexes functions by
// USR and, for each call a region makes to a function defined in another
// TU, follows the callee's summary (and the calls it leaves unresolved, to
// the call depth limit) to the hazards it reaches. Each becomes a finding at
// the call inside the region, with notes that cross files down to the
// hazard and back to where the region begins. Calls into functions no
// summary defines are listed, so the run can say what it did not check.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_WHOLEPROGRAM_H
#define CAPTURE_LINT_TOOL_WHOLEPROGRAM_H

#include "Report.h"
#include "SourceText.h"
#include "capture_lint/Summary.h"

#include <functional>
#include <memory>

namespace capture_lint {

struct WholeProgramInput {
  /// Summaries whose regions are reported (the files analysed).
  std::vector<const TuSummary *> Reported;
  /// Summaries that only resolve calls (other TUs of the database).
  std::vector<const TuSummary *> IndexOnly;
  unsigned MaxCallDepth = 8;
  /// The catalog that applies to a region's file.
  std::function<std::shared_ptr<const Catalog>(const std::string &File)>
      CatalogFor;
  /// Only these checks are reported.
  std::function<bool(const std::string &Check)> Enabled;
  /// Where the lines of summary locations come from; null: the files.
  SourceFiles *Sources = nullptr;
};

/// A call a region makes (directly or through the functions it follows)
/// to a function whose body no analysed file or summary holds: what it does
/// was not checked.
struct UnfollowedCall {
  std::string Callee;
  std::string File; // absolute
  unsigned Offset = 0, Line = 0;
};

struct CrossUnitResult {
  /// The cross-TU findings, with locations resolved to lines.
  std::vector<ReportFinding> Findings;
  /// Each callee without a body once, at the first call seen.
  std::vector<UnfollowedCall> Unfollowed;
};

CrossUnitResult resolveAcrossUnits(const WholeProgramInput &In);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_WHOLEPROGRAM_H
