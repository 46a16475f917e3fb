//===- ImportedRole.h - A role recorded in another TU, made usable -*- C++ -*-//
//
// Turns a SummaryRole (RoleImports.h) back into the FunctionRole the region
// finder and the hazard scanner use: catalog calls looked up by name, and
// locations in the defining file made source locations of this TU, so the
// notes of a finding still lead to the begin in the other file.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_IMPORTEDROLE_H
#define CAPTURE_LINT_IMPORTEDROLE_H

#include "capture_lint/Catalog.h"
#include "capture_lint/FunctionRoles.h"
#include "capture_lint/RoleImports.h"

namespace clang {
class FunctionDecl;
class SourceManager;
} // namespace clang

namespace capture_lint {

/// The role \p S records for \p FD (declared here, defined elsewhere).
/// Parts whose catalog calls \p Cat does not know are left out. Where a
/// defining file is absent, the places of \p All (every role this TU
/// imports) stand in for it.
FunctionRole roleFromSummary(const SummaryRole &S,
                             const clang::FunctionDecl *FD, const Catalog &Cat,
                             clang::SourceManager &SM,
                             const RoleImports *All = nullptr);

} // namespace capture_lint

#endif // CAPTURE_LINT_IMPORTEDROLE_H
