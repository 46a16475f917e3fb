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

namespace capture_lint {

std::string failurePhrase(llvm::StringRef Error) {
  auto [Fails, Otherwise] = Error.split("; ");
  std::string Out = Fails.empty() ? "" : " with " + Fails.str();
  Out += " and invalidates the capture";
  if (!Otherwise.empty())
    Out += "; " + Otherwise.str();
  return Out;
}

} // namespace capture_lint
