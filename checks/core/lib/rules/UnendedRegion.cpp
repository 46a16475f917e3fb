//===- UnendedRegion.cpp - capture-unended-region -------------------------===//
//
// A capture begun in a function that no path ends, and that no function of
// the translation unit ends for it: the stream stays in capture mode and
// later work on it is captured or fails. RegionFinder finds the regions
// and their ends; CaptureAnalyzer reports those left open at the end of
// the translation unit.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

namespace capture_lint::rules {

std::string unendedRegionMessage(const CaptureRegion &R,
                                 llvm::StringRef Function,
                                 llvm::StringRef EndName) {
  return "capture of " + streamPhrase(R) + " begun here is never ended in '" +
         Function.str() +
         "', and no function in this translation unit ends it: no "
         "path reaches a matching '" +
         EndName.str() +
         "', so the stream stays in capture mode and later work on it "
         "is captured or fails; end the capture on every path, "
         "including error returns (a function that ends it elsewhere "
         "can be named in .capture-lint.json 'regions')";
}

} // namespace capture_lint::rules
