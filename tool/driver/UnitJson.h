//===- UnitJson.h - A translation unit's results as JSON --------*- C++ -*-===//
//
// The findings and errors of one analysed file, written as JSON and read
// back: the cache entries (SummaryCache.h) and the summaries `capture-lint
// summarize` writes (SummaryFile.h) hold them in this one shape. Readers
// throw nlohmann::json::exception on a document of the wrong shape.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_UNITJSON_H
#define CAPTURE_LINT_TOOL_UNITJSON_H

#include "Report.h"

#include <nlohmann/json.hpp>

#include <optional>

namespace capture_lint {

nlohmann::json findingJson(const ReportFinding &F);
/// The finding \p J holds; nothing when a field is not one of its values.
std::optional<ReportFinding> findingFrom(const nlohmann::json &J);

nlohmann::json errorJson(const ReportError &E);
ReportError errorFrom(const nlohmann::json &J);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_UNITJSON_H
