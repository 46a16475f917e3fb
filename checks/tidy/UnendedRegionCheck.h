//===- UnendedRegionCheck.h - capture-unended-region
//------------------------------------------------===//
//
// A capture begun in a function that no path of that function ends: the stream
// is left capturing.
// See docs/checks/capture-unended-region.md.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TIDY_UNENDEDREGIONCHECK_H
#define CAPTURE_LINT_TIDY_UNENDEDREGIONCHECK_H

#include "CaptureCheckBase.h"

namespace capture_lint::tidy {

class UnendedRegionCheck : public CaptureCheckBase {
public:
  UnendedRegionCheck(llvm::StringRef Name,
                     clang::tidy::ClangTidyContext *Context)
      : CaptureCheckBase(Name, Context, CheckKind::UnendedRegion) {}
};

} // namespace capture_lint::tidy

#endif
