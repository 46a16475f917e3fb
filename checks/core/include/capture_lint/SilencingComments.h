//===- SilencingComments.h - Suppression comments of a TU -------*- C++ -*-===//
//
// The shared suppression parser (Suppressions.h) over the files of one
// translation unit, for every C++ front door: a finding is silenced by a
// comment at its line or where each macro around it is expanded, as
// clang-tidy reads NOLINT. Each file's comments are read once.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_SILENCINGCOMMENTS_H
#define CAPTURE_LINT_SILENCINGCOMMENTS_H

#include "capture_lint/Suppressions.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <memory>

namespace capture_lint {

class SilencingComments {
public:
  explicit SilencingComments(const clang::SourceManager &SM) : SM(SM) {}

  /// Whether a finding of \p Check at \p Loc is silenced.
  bool silenced(clang::SourceLocation Loc, llvm::StringRef Check);

  /// The unmatched NOLINTBEGIN and NOLINTEND comments of the files read so
  /// far, with the file they are in.
  template <typename Fn> void forEachProblem(Fn &&Each) const {
    for (const auto &[File, Comments] : Files)
      for (const Suppressions::Problem &P : Comments->problems())
        Each(File, P);
  }

private:
  const Suppressions &commentsOf(clang::FileID File);

  const clang::SourceManager &SM;
  std::map<clang::FileID, std::unique_ptr<Suppressions>> Files;
};

} // namespace capture_lint

#endif // CAPTURE_LINT_SILENCINGCOMMENTS_H
