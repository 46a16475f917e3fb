//===- OtherFiles.h - What a front door knows of other files ----*- C++ -*-===//
//
// A translation unit on its own sees only its own bodies: a region that
// calls a function defined in another file gets no finding for what that
// function does, and a helper of another file that begins a capture opens
// no region. The CLI joins every TU's summary (WholeProgram.h); in an
// editor, capture-clangd has only the file being edited, so it takes the
// other files' summaries from what the last `capture-lint -p` run cached,
// as clangd's background index stands for the files not open.
//
// Each front door that links the adapter defines ProgramOtherFiles in its
// own sources: capture-clangd, its reader of the cache; the clang-tidy
// plugin, null (clang-tidy runs one file at a time, and its users run the
// CLI for the whole program).
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TIDY_OTHERFILES_H
#define CAPTURE_LINT_TIDY_OTHERFILES_H

#include "capture_lint/Finding.h"
#include "capture_lint/Summary.h"

#include <memory>
#include <string>
#include <vector>

namespace capture_lint::tidy {

class OtherFiles {
public:
  virtual ~OtherFiles() = default;

  /// The roles (opener, closer, predicate...) of functions that other
  /// files define, for analysing \p MainFile; null when none are known.
  /// The same pointer while nothing changed, so the checks of one TU share
  /// one analysis.
  virtual std::shared_ptr<const RoleImports>
  roles(const std::string &MainFile) = 0;

  /// The findings of calls that \p Live's regions make into functions
  /// other files define (every check's; each check emits its own).
  virtual std::vector<Finding> findings(const TuSummary &Live,
                                        const std::string &MainFile,
                                        unsigned MaxCallDepth) = 0;
};

extern OtherFiles *const ProgramOtherFiles;

} // namespace capture_lint::tidy

#endif // CAPTURE_LINT_TIDY_OTHERFILES_H
