//===- HazardText.h - Finding text shared inside the core ------*- C++ -*-===//
//
// The phrases more than one part of the analysis needs; the public entry
// points (describeHazard, materialize, regionHeadline) are in Analysis.h.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_HAZARDTEXT_H
#define CAPTURE_LINT_HAZARDTEXT_H

#include "capture_lint/RegionFinder.h"

#include <string>

namespace capture_lint {

/// "stream 's'", "graph 'g'", or "the stream" when it has no name.
std::string streamPhrase(const CaptureRegion &R);

/// The message of a capture-unended-region finding.
std::string unendedRegionMessage(const CaptureRegion &R,
                                 llvm::StringRef Function,
                                 llvm::StringRef EndName);

} // namespace capture_lint

#endif // CAPTURE_LINT_HAZARDTEXT_H
