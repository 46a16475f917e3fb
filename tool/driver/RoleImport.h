//===- RoleImport.h - Which roles each TU takes from other TUs --*- C++ -*-===//
//
// Between the per-TU analysis and the whole-program join: a TU that calls a
// function another TU defines with a role (an opener, a closer, a wrapper, a
// capture predicate; RoleImports.h) is analysed again with that role, so
// its regions begin, end and are guarded as if the body were in view.
// Roles travel one file deep: a role that itself depends on an import is
// not passed on.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_ROLEIMPORT_H
#define CAPTURE_LINT_TOOL_ROLEIMPORT_H

#include "capture_lint/Summary.h"

#include <memory>
#include <string>
#include <vector>

namespace capture_lint {

/// For each of \p Analysed, the roles of the bodiless functions it calls
/// that some summary of \p Known (which may include \p Analysed) records;
/// null where there are none.
std::vector<std::shared_ptr<const RoleImports>>
roleImportsFor(const std::vector<const TuSummary *> &Analysed,
               const std::vector<const TuSummary *> &Known);

/// The functions \p Analysed call without their body that no summary of
/// \p Known defines (their roles, if any, could not be imported), by name.
std::vector<std::string>
bodilessNowhereDefined(const std::vector<const TuSummary *> &Analysed,
                       const std::vector<const TuSummary *> &Known);

/// A readable name for a USR ("c:@N@ns@S@Graph@F@begin#" is
/// "ns::Graph::begin"); the USR itself when it does not look like one.
std::string usrDisplayName(llvm::StringRef Usr);

/// What of \p Imports changes an analysis, for its cache key ("" for none).
std::string importsKey(const RoleImports *Imports);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_ROLEIMPORT_H
