//===- RuleText.cpp - Phrases the checks' rules share ---------------------===//

#include "RuleText.h"

namespace capture_lint::rules {

std::string streamPhrase(const CaptureRegion &R) {
  bool Graph = R.Api && R.Api->keyedByObject();
  std::string Noun = Graph ? "graph" : "stream";
  return R.Stream.empty() ? "the " + Noun : Noun + " '" + R.Stream + "'";
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
