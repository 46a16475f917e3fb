//===- UnitFindings.h - A TU's findings as reported -------------*- C++ -*-===//
//
// Turns the analyzer's findings on a translation unit into the report's:
// at their expansion locations, with their notes, region and fixes, and
// without those in system headers or silenced by a comment
// (SilencingComments.h).
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_UNITFINDINGS_H
#define CAPTURE_LINT_TOOL_UNITFINDINGS_H

#include "Report.h"
#include "SourceText.h"

#include "capture_lint/Analysis.h"
#include "capture_lint/SilencingComments.h"

#include "clang/Basic/SourceManager.h"

#include <optional>
#include <string>

namespace capture_lint {

class UnitFindings {
public:
  /// \p Directory: the compile command's, against which the compiler's
  /// relative file names are resolved.
  UnitFindings(const clang::SourceManager &SM, const clang::LangOptions &LO,
               std::string Directory, SourceFiles &Sources)
      : SM(SM), LO(LO), Directory(std::move(Directory)), Sources(Sources),
        Comments(SM) {}

  /// \p F as the report has it; nullopt when it is not reported.
  std::optional<ReportFinding> convert(const ClangFinding &F);

  /// The unmatched NOLINTBEGIN and NOLINTEND comments of the files whose
  /// comments were read, as errors.
  std::vector<ReportError> suppressionProblems() const;

private:
  /// The absolute path and offset of \p Loc's expansion location.
  std::pair<std::string, unsigned> place(clang::SourceLocation Loc) const;
  /// The line, column and text of \p Loc: from the file, else from the
  /// buffer this TU parsed (a stand-in for a file absent here).
  SourcePlace located(clang::SourceLocation Loc);

  const clang::SourceManager &SM;
  const clang::LangOptions &LO;
  std::string Directory;
  SourceFiles &Sources;
  SilencingComments Comments;
};

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_UNITFINDINGS_H
