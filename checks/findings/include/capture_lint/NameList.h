//===- NameList.h - The first few of a list, and how many more --*- C++ -*-===//
//
// A warning that counts what a run could not do names the first few items
// and says how many more there are ("'a', 'b', 'c' and 4 more"), in both
// languages' warnings alike.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_NAMELIST_H
#define CAPTURE_LINT_NAMELIST_H

#include <string>
#include <vector>

namespace capture_lint {

/// The first \p Shown of \p Items, each as written (already quoted), joined
/// by ", ", then " and N more" for the rest.
std::string firstFew(const std::vector<std::string> &Items, size_t Shown = 3);

} // namespace capture_lint

#endif // CAPTURE_LINT_NAMELIST_H
