//===- SarifOutput.cpp - SARIF 2.1.0 output -------------------------------===//
//
// One run; every check declared as a rule (even those without results, with
// a description, markdown help and a default level), each finding a result
// with its location relative to %SRCROOT%, a fingerprint that survives edits
// that move code, its notes as relatedLocations and, from the region's begin
// down to the offending call, as a codeFlow; files that could not be
// analysed as toolExecutionNotifications.
//
//===----------------------------------------------------------------------===//

#include "Baseline.h"
#include "Report.h"
#include "Version.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA1.h"
#include <nlohmann/json.hpp>

namespace capture_lint {

using nlohmann::json;

/// \p Path with every byte outside [A-Za-z0-9/-_.~] percent-encoded.
static std::string uriPath(const std::string &Path) {
  std::string Out;
  for (char C : Path) {
    if (std::isalnum(static_cast<unsigned char>(C)) || std::strchr("/-_.~", C))
      Out += C;
    else {
      char Buf[4];
      std::snprintf(Buf, sizeof Buf, "%%%02X", static_cast<unsigned char>(C));
      Out += Buf;
    }
  }
  return Out;
}

static std::string fileUri(const std::string &Path) {
  return "file://" + uriPath(Path);
}

namespace {
/// Where relative URIs start: %SRCROOT%.
struct SourceRoot {
  std::string Dir; // absolute, without a trailing separator
  /// \p File as the artifacts' URIs name it: relative to the root when
  /// under it, else as given.
  std::string relative(const std::string &File) const {
    std::string Rel = relativeTo(File, Dir);
    return Rel == File ? File : uriPath(Rel);
  }
  json artifact(const std::string &File) const {
    std::string Rel = relativeTo(File, Dir);
    if (Rel == File)
      return {{"uri", fileUri(File)}};
    return {{"uri", uriPath(Rel)}, {"uriBaseId", "%SRCROOT%"}};
  }
};
} // namespace

static json physicalLocation(const SourcePlace &L, const SourceRoot &Root) {
  json P = {{"artifactLocation", Root.artifact(L.File)}};
  if (L.Line)
    P["region"] = {{"startLine", L.Line},
                   {"startColumn", std::max(1u, L.Column)}};
  return P;
}

static const char *sarifLevel(Severity Level) {
  switch (Level) {
  case Severity::Error:
    return "error";
  case Severity::Remark:
    return "note";
  case Severity::Warning:
    break;
  }
  return "warning";
}

static json ruleOf(const CheckInfo &C) {
  std::string Doc = std::string("docs/checks/") + C.Name + ".md";
  json Rule = {
      {"id", C.Name},
      {"name", C.Name},
      {"shortDescription", {{"text", C.Description}}},
      {"fullDescription", {{"text", std::string(C.Description) + " " + C.Why}}},
      {"help",
       {{"text", std::string(C.Why) + " Fix: " + C.Fix + " See " + Doc +
                     " in the capture-lint distribution."},
        {"markdown", std::string("**What happens under capture.** ") + C.Why +
                         "\n\n**Fix.** " + C.Fix + "\n\nSee `" + Doc +
                         "` in the capture-lint distribution."}}},
      {"defaultConfiguration", {{"level", C.DefaultLevel}}},
      {"properties",
       {{"tags", json::array({"correctness", "cuda", "graph-capture"})},
        {"precision", "high"}}}};
  if (std::strlen(CAPTURE_LINT_DOCS_URL))
    Rule["helpUri"] =
        std::string(CAPTURE_LINT_DOCS_URL) + "/checks/" + C.Name + ".md";
  return Rule;
}

/// The path from the region's begin to the offending call: the region's
/// notes first, then the call in the region, then the notes down the chain.
static json codeFlowOf(const ReportFinding &F, const SourceRoot &Root) {
  auto IsRegionNote = [&](const FindingNote &N) {
    return F.HasRegion && N.Loc.File == F.RegionFile &&
           N.Loc.Line == F.RegionBeginLine;
  };
  json Steps = json::array();
  auto Step = [&](const SourcePlace &L, const std::string &Message) {
    Steps.push_back({{"location",
                      {{"physicalLocation", physicalLocation(L, Root)},
                       {"message", {{"text", Message}}}}}});
  };
  for (const FindingNote &N : F.Notes)
    if (IsRegionNote(N))
      Step(N.Loc, N.Message);
  Step(F.Loc, F.Message);
  for (const FindingNote &N : F.Notes)
    if (!IsRegionNote(N))
      Step(N.Loc, N.Message);
  return json::array(
      {{{"threadFlows", json::array({{{"locations", Steps}}})}}});
}

/// A fingerprint that survives edits moving code (Baseline.h's key), with
/// an occurrence count for findings whose keys are equal.
static std::string fingerprint(const ReportFinding &F, const std::string &Root,
                               std::map<std::string, unsigned> &Seen) {
  llvm::SHA1 Hash;
  Hash.update(stableFindingKey(F, Root));
  std::string Hex = llvm::toHex(Hash.final(), /*LowerCase=*/true);
  return Hex.substr(0, 32) + ":" + std::to_string(++Seen[Hex]);
}

void writeSarif(const Report &R, llvm::raw_ostream &OS,
                const std::string &SourceRootDir) {
  llvm::SmallString<256> RootDir(SourceRootDir.empty() ? "." : SourceRootDir);
  llvm::sys::fs::make_absolute(RootDir);
  llvm::sys::path::remove_dots(RootDir, /*remove_dot_dot=*/true);
  if (RootDir.size() > 1 && llvm::sys::path::is_separator(RootDir.back()))
    RootDir.pop_back();
  SourceRoot Root{std::string(RootDir)};
  json Rules = json::array();
  std::map<std::string, unsigned> RuleIndex;
  for (const CheckInfo &C : allChecks()) {
    RuleIndex[C.Name] = Rules.size();
    Rules.push_back(ruleOf(C));
  }
  json Results = json::array();
  std::map<std::string, unsigned> Seen;
  for (const ReportFinding &F : R.Findings) {
    json Result = {
        {"ruleId", F.Check},
        {"level", sarifLevel(F.Level)},
        {"message", {{"text", F.Message}}},
        {"locations",
         json::array({{{"physicalLocation", physicalLocation(F.Loc, Root)}}})},
        {"partialFingerprints",
         {{"captureLintFinding/v1", fingerprint(F, Root.Dir, Seen)}}}};
    auto It = RuleIndex.find(F.Check);
    if (It != RuleIndex.end())
      Result["ruleIndex"] = It->second;
    json Related = json::array();
    unsigned Id = 0;
    for (const FindingNote &N : F.Notes)
      Related.push_back({{"id", Id++},
                         {"message", {{"text", N.Message}}},
                         {"physicalLocation", physicalLocation(N.Loc, Root)}});
    if (!Related.empty()) {
      Result["relatedLocations"] = std::move(Related);
      Result["codeFlows"] = codeFlowOf(F, Root);
    }
    json Props = {{"api", F.Api}};
    if (!F.Via.empty()) { // the call here reaches the hazard there
      Props["via"] = F.Via;
      Props["hazardLocation"] = physicalLocation(F.HazardLoc, Root);
    }
    if (F.HasVerdict)
      Props["runtimeVerdict"] = {{"status", F.Verdict.Status},
                                 {"reason", F.Verdict.Reason}};
    if (F.HasRegion)
      Props["region"] = {{"file", Root.relative(F.RegionFile)},
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
         {"help",
          {{"text", "See docs/runtime-probe.md in the capture-lint "
                    "distribution."}}}});
    for (const ReportMissed &M : R.Missed)
      Results.push_back(
          {{"ruleId", "capture-probe-missed"},
           {"ruleIndex", Index},
           {"level", "warning"},
           {"message", {{"text", M.Message}}},
           {"locations", json::array({{{"physicalLocation",
                                        physicalLocation(M.Loc, Root)}}})},
           {"properties", {{"api", M.Api}, {"classes", M.Classes}}}});
  }
  json Notifications = json::array();
  for (const ReportError &E : R.Errors) {
    json N = {{"level", "error"}, {"message", {{"text", E.Message}}}};
    if (!E.Loc.File.empty())
      N["locations"] =
          json::array({{{"physicalLocation", physicalLocation(E.Loc, Root)}}});
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
              {"originalUriBaseIds",
               {{"%SRCROOT%", {{"uri", fileUri(Root.Dir + "/")}}}}},
              {"invocations", json::array({std::move(Invocation)})},
              {"results", std::move(Results)}};
  json Doc = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
              {"version", "2.1.0"},
              {"runs", json::array({std::move(Run)})}};
  OS << Doc.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
}

} // namespace capture_lint
