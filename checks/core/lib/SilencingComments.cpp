//===- SilencingComments.cpp - Suppression comments of a TU ---------------===//

#include "capture_lint/SilencingComments.h"

using namespace clang;

namespace capture_lint {

const Suppressions &SilencingComments::commentsOf(FileID File) {
  std::unique_ptr<Suppressions> &S = Files[File];
  if (!S) {
    bool Invalid = false;
    llvm::StringRef Text = SM.getBufferData(File, &Invalid);
    S = std::make_unique<Suppressions>(Invalid ? "" : Text, "//");
  }
  return *S;
}

bool SilencingComments::silenced(SourceLocation Loc, llvm::StringRef Check) {
  while (Loc.isValid()) {
    auto [File, Offset] = SM.getDecomposedLoc(SM.getSpellingLoc(Loc));
    if (commentsOf(File).suppressed(SM.getLineNumber(File, Offset), Check))
      return true;
    if (!Loc.isMacroID())
      return false;
    Loc = SM.getImmediateExpansionRange(Loc).getBegin();
  }
  return false;
}

} // namespace capture_lint
