//===- Plugin.cpp - The clang-tidy plugin's choices -----------------------===//
//
// `clang-tidy-19 -load=libCaptureLintPlugin.so`: the capture module registers
// itself when the plugin is loaded (CaptureTidyModule.cpp). Findings are
// warnings (errors included) and remarks, so that NOLINT and
// WarningsAsErrors work as clang-tidy users expect (FindingLevel.h).
//
//===----------------------------------------------------------------------===//

#include "FindingLevel.h"

namespace capture_lint::tidy {
const bool EmitFindingsAtTheirSeverity = false;
} // namespace capture_lint::tidy
