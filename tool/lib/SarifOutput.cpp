//===- SarifOutput.cpp - SARIF 2.1.0 output -------------------------------===//
//
// One run; every check declared as a rule (even those without results), each
// finding a result with its location, its notes as relatedLocations, and
// files that could not be analysed as toolExecutionNotifications.
//
//===----------------------------------------------------------------------===//

#include "Report.h"
#include "Version.h"

#include "llvm/Support/Path.h"
#include <nlohmann/json.hpp>

namespace capture_lint {

using nlohmann::json;

static std::string fileUri(const std::string &Path) {
  std::string Uri = "file://";
  for (char C : Path) {
    if (std::isalnum(static_cast<unsigned char>(C)) || std::strchr("/-_.~", C))
      Uri += C;
    else {
      char Buf[4];
      std::snprintf(Buf, sizeof Buf, "%%%02X", static_cast<unsigned char>(C));
      Uri += Buf;
    }
  }
  return Uri;
}

static json physicalLocation(const ReportLocation &L) {
  json P = {{"artifactLocation", {{"uri", fileUri(L.File)}}}};
  if (L.Line)
    P["region"] = {{"startLine", L.Line},
                   {"startColumn", std::max(1u, L.Column)}};
  return P;
}

static const char *sarifLevel(const std::string &Severity) {
  if (Severity == "error")
    return "error";
  if (Severity == "remark")
    return "note";
  return "warning";
}

void writeSarif(const Report &R, llvm::raw_ostream &OS) {
  json Rules = json::array();
  std::map<std::string, unsigned> RuleIndex;
  for (const CheckInfo &C : allChecks()) {
    RuleIndex[C.Name] = Rules.size();
    Rules.push_back(
        {{"id", C.Name},
         {"name", C.Name},
         {"shortDescription", {{"text", C.Description}}},
         {"help",
          {{"text", std::string("See docs/checks/") + C.Name +
                        ".md in the capture-lint distribution."}}}});
  }
  json Results = json::array();
  for (const ReportFinding &F : R.Findings) {
    json Result = {
        {"ruleId", F.Check},
        {"level", sarifLevel(F.Severity)},
        {"message", {{"text", F.Message}}},
        {"locations",
         json::array({{{"physicalLocation", physicalLocation(F.Loc)}}})}};
    auto It = RuleIndex.find(F.Check);
    if (It != RuleIndex.end())
      Result["ruleIndex"] = It->second;
    json Related = json::array();
    unsigned Id = 0;
    for (const ReportNote &N : F.Notes)
      Related.push_back({{"id", Id++},
                         {"message", {{"text", N.Message}}},
                         {"physicalLocation", physicalLocation(N.Loc)}});
    if (!Related.empty())
      Result["relatedLocations"] = std::move(Related);
    json Props = {{"api", F.Api}};
    if (F.HasVerdict)
      Props["runtimeVerdict"] = {{"status", F.Verdict.Status},
                                 {"reason", F.Verdict.Reason}};
    if (F.HasRegion)
      Props["region"] = {{"file", F.RegionFile},
                         {"beginLine", F.RegionBeginLine},
                         {"endLine", F.RegionEndLine},
                         {"mode", F.Mode},
                         {"stream", F.Stream}};
    Result["properties"] = std::move(Props);
    Results.push_back(std::move(Result));
  }
  if (!R.Missed.empty()) {
    unsigned Index = Rules.size();
    Rules.push_back(
        {{"id", "capture-probe-missed"},
         {"name", "capture-probe-missed"},
         {"shortDescription",
          {{"text", "A problem the runtime probe saw during a capture that "
                    "no static finding covers"}}},
         {"help", {{"text", "See docs/runtime-probe.md in the capture-lint "
                            "distribution."}}}});
    for (const ReportMissed &M : R.Missed)
      Results.push_back(
          {{"ruleId", "capture-probe-missed"},
           {"ruleIndex", Index},
           {"level", "warning"},
           {"message", {{"text", M.Message}}},
           {"locations",
            json::array({{{"physicalLocation", physicalLocation(M.Loc)}}})},
           {"properties", {{"api", M.Api}, {"classes", M.Classes}}}});
  }
  json Notifications = json::array();
  for (const ReportError &E : R.Errors) {
    json N = {{"level", "error"}, {"message", {{"text", E.Message}}}};
    if (!E.Loc.File.empty())
      N["locations"] =
          json::array({{{"physicalLocation", physicalLocation(E.Loc)}}});
    Notifications.push_back(std::move(N));
  }
  for (const std::string &W : R.Warnings)
    Notifications.push_back({{"level", "warning"}, {"message", {{"text", W}}}});
  json Invocation = {{"executionSuccessful", R.Errors.empty()}};
  if (!Notifications.empty())
    Invocation["toolExecutionNotifications"] = std::move(Notifications);
  json Run = {{"tool",
               {{"driver",
                 {{"name", "capture-lint"},
                  {"version", CAPTURE_LINT_VERSION},
                  {"rules", std::move(Rules)}}}}},
              {"invocations", json::array({std::move(Invocation)})},
              {"results", std::move(Results)}};
  json Doc = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
              {"version", "2.1.0"},
              {"runs", json::array({std::move(Run)})}};
  OS << Doc.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
}

} // namespace capture_lint
