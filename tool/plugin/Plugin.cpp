//===- Plugin.cpp - The clang-tidy plugin's choices -----------------------===//
//
// `clang-tidy-19 -load=libCaptureLintPlugin.so`: the capture module registers
// itself when the plugin is loaded (CaptureTidyModule.cpp). Findings are
// warnings (errors included) and remarks, so that NOLINT and
// WarningsAsErrors work as clang-tidy users expect (FindingLevel.h).
// clang-tidy runs one file at a time: calls into other files are not
// followed (OtherFiles.h); the CLI joins the whole program.
//
//===----------------------------------------------------------------------===//

#include "FindingLevel.h"
#include "OtherFiles.h"

namespace capture_lint::tidy {
const bool EmitFindingsAtTheirSeverity = false;
OtherFiles *const ProgramOtherFiles = nullptr;
} // namespace capture_lint::tidy
