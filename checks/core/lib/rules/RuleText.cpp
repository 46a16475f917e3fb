//===- RuleText.cpp - Phrases the checks' rules share ---------------------===//

#include "RuleText.h"

#include "capture_lint/AstUtil.h"

namespace capture_lint::rules {

std::string streamPhrase(const CaptureRegion &R) {
  bool Graph = R.Api && R.Api->keyedByObject();
  std::string Noun = Graph ? "graph" : "stream";
  return R.Stream.empty() ? "the " + Noun : Noun + " '" + R.Stream + "'";
}

ClangFinding regionFinding(CheckKind Check, const CaptureRegion &R,
                           clang::SourceLocation Loc, std::string Message,
                           const clang::ASTContext &Ctx) {
  ClangFinding F;
  F.Check = Check;
  F.Level = Severity::Error;
  F.Loc = Loc;
  F.Message = std::move(Message);
  clang::SourceLocation Begin = fileLoc(R.BeginLoc, Ctx.getSourceManager());
  F.Notes.push_back(
      {Begin, "the capture of " + streamPhrase(R) + " begins here"});
  F.RegionBegin = Begin;
  F.Mode = R.Mode;
  F.Stream = R.Stream;
  return F;
}

bool isHipRegion(const CaptureRegion &R) {
  return R.Api && llvm::StringRef(R.Api->Group).starts_with("hip");
}

std::string implicitError(const CaptureRegion &R) {
  if (isHipRegion(R))
    return "hipErrorStreamCaptureImplicit";
  return "cudaErrorStreamCaptureImplicit (906)";
}

} // namespace capture_lint::rules
