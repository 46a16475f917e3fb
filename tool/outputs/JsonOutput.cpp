//===- JsonOutput.cpp - The documented JSON output ------------------------===//
//
// Stable fields (docs/usage.md): version, tool, findings[] {check, severity,
// file, line, column, message, api, via, hazard_at {file, line, column},
// region {file, begin_line, end_line, mode, stream}, notes[] {file, line,
// column, message}}, errors[], warnings[], summary.
//
//===----------------------------------------------------------------------===//

#include "Report.h"
#include "Version.h"

#include <nlohmann/json.hpp>

namespace capture_lint {

using nlohmann::json;

void writeJson(const Report &R, llvm::raw_ostream &OS) {
  json Doc;
  Doc["version"] = 1;
  Doc["tool"] = {{"name", "capture-lint"}, {"version", CAPTURE_LINT_VERSION}};
  json Findings = json::array();
  for (const ReportFinding &F : R.Findings) {
    json J;
    J["check"] = F.Check;
    J["severity"] = severityName(F.Level);
    J["file"] = F.Loc.File;
    J["line"] = F.Loc.Line;
    J["column"] = F.Loc.Column;
    J["message"] = F.Message;
    J["api"] = F.Api;
    // The call at file:line that reaches the hazard, and where the hazard
    // itself is (file:line when the hazard is there).
    J["via"] = F.Via.empty() ? json(nullptr) : json(F.Via);
    const SourcePlace &At = F.Via.empty() ? F.Loc : F.HazardLoc;
    J["hazard_at"] = {
        {"file", At.File}, {"line", At.Line}, {"column", At.Column}};
    if (F.HasRegion)
      J["region"] = {
          {"file", F.RegionFile},
          {"begin_line", F.RegionBeginLine},
          {"end_line", F.RegionEndLine ? json(F.RegionEndLine) : json(nullptr)},
          {"mode", F.Mode},
          {"stream", F.Stream}};
    else
      J["region"] = nullptr;
    json Notes = json::array();
    for (const FindingNote &N : F.Notes)
      Notes.push_back({{"file", N.Loc.File},
                       {"line", N.Loc.Line},
                       {"column", N.Loc.Column},
                       {"message", N.Message}});
    J["notes"] = std::move(Notes);
    if (F.HasVerdict) {
      json V = {{"status", F.Verdict.Status}, {"reason", F.Verdict.Reason}};
      if (!F.Verdict.EvidenceApi.empty())
        V["evidence"] = {{"api", F.Verdict.EvidenceApi},
                         {"classes", F.Verdict.EvidenceClasses},
                         {"file", F.Verdict.EvidenceFile},
                         {"line", F.Verdict.EvidenceLine}};
      J["verdict"] = std::move(V);
    }
    Findings.push_back(std::move(J));
  }
  json Errors = json::array();
  for (const ReportError &E : R.Errors)
    Errors.push_back({{"file", E.Loc.File},
                      {"line", E.Loc.Line},
                      {"column", E.Loc.Column},
                      {"message", E.Message}});
  Doc["findings"] = std::move(Findings);
  if (R.Confirmed) {
    json Missed = json::array();
    for (const ReportMissed &M : R.Missed)
      Missed.push_back({{"file", M.Loc.File},
                        {"line", M.Loc.Line},
                        {"api", M.Api},
                        {"classes", M.Classes},
                        {"message", M.Message}});
    Doc["missed_statically"] = std::move(Missed);
  }
  Doc["errors"] = std::move(Errors);
  Doc["warnings"] = R.Warnings;
  Doc["summary"] = {{"files", R.FilesAnalyzed},
                    {"findings", R.Findings.size()},
                    {"errors", R.Errors.size()}};
  OS << Doc.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
}

} // namespace capture_lint
