//===- ProbeReportReader.h - Reading a probe report for --confirm -*- C++ -*-=//
//
// A probe report comes from another machine and another program: it is read
// with a size limit, parsed without exceptions, and every field the reader
// uses is checked for its type before capture_probe::fromJson converts it,
// so a damaged or hand-edited report gives an error naming the field
// ("'captures[0].begin.seq': expected a non-negative integer, found \"7\""),
// never an abort.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_PROBEREPORTREADER_H
#define CAPTURE_LINT_TOOL_PROBEREPORTREADER_H

#include "capture_probe/Report.h"

#include <string>

namespace capture_lint {

/// Checks that \p J has the shape of a capture-probe report (version 1).
/// Returns "" or the first problem, naming the field.
std::string checkProbeReportShape(const nlohmann::json &J);

/// Reads and checks the report at \p Path into \p Out. Returns "" or an
/// error message that names the file and the field.
std::string readProbeReport(const std::string &Path,
                            capture_probe::ProbeReport &Out);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_PROBEREPORTREADER_H
