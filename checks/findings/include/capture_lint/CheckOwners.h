//===- CheckOwners.h - Which check reports a catalog hazard class -*- C++ -*-//
//
// The registry (checks/registry/Checks.def) says, per check, the catalog
// hazard class whose entries it reports and the languages it runs in; both
// analyses ask it here, so a call to cudaMalloc and one to
// `tensor.pin_memory()` are reported by the check the registry names.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_CHECKOWNERS_H
#define CAPTURE_LINT_CHECKOWNERS_H

#include "capture_lint/Catalog.h"

#include <string_view>

namespace capture_lint {

enum class Language { Cpp, Python };

/// The name of the check that reports catalog entries of class \p H in
/// \p L ("capture-allocation"), or "" when none does.
std::string_view checkOwning(Hazard H, Language L);

} // namespace capture_lint

#endif // CAPTURE_LINT_CHECKOWNERS_H
