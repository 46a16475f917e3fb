//===- UnitJson.cpp - A translation unit's results as JSON ----------------===//

#include "UnitJson.h"

using nlohmann::json;

namespace capture_lint {

/// A place in a source file, as the report has it.
static json locationJson(const SourcePlace &L) {
  return {{"file", L.File},
          {"line", L.Line},
          {"column", L.Column},
          {"text", L.LineText}};
}

static SourcePlace locationFrom(const json &J) {
  SourcePlace L;
  L.File = J.at("file").get<std::string>();
  L.Line = J.at("line").get<unsigned>();
  L.Column = J.at("column").get<unsigned>();
  L.LineText = J.at("text").get<std::string>();
  return L;
}

json findingJson(const ReportFinding &F) {
  json Notes = json::array();
  for (const FindingNote &N : F.Notes)
    Notes.push_back({{"at", locationJson(N.Loc)}, {"message", N.Message}});
  json Fixes = json::array();
  for (const TextEdit &R : F.Fixes)
    Fixes.push_back({{"file", R.File},
                     {"offset", R.Offset},
                     {"length", R.Length},
                     {"text", R.Text}});
  return {{"check", F.Check},
          {"offset", F.Loc.Offset},
          {"severity", severityName(F.Level)},
          {"at", locationJson(F.Loc)},
          {"message", F.Message},
          {"api", F.Api},
          {"via", F.Via},
          {"hazard_at", locationJson(F.HazardLoc)},
          {"hazard_offset", F.HazardLoc.Offset},
          {"has_region", F.HasRegion},
          {"region_file", F.RegionFile},
          {"region_begin", F.RegionBeginLine},
          {"region_end", F.RegionEndLine},
          {"mode", F.Mode},
          {"stream", F.Stream},
          {"notes", std::move(Notes)},
          {"fixes", std::move(Fixes)}};
}

std::optional<ReportFinding> findingFrom(const json &J) {
  ReportFinding F;
  F.Check = J.at("check").get<std::string>();
  auto Level = parseSeverity(J.at("severity").get<std::string>());
  if (!Level)
    return std::nullopt;
  F.Level = *Level;
  F.Loc = locationFrom(J.at("at"));
  F.Loc.Offset = J.at("offset").get<unsigned>();
  F.Message = J.at("message").get<std::string>();
  F.Api = J.at("api").get<std::string>();
  F.Via = J.at("via").get<std::string>();
  F.HazardLoc = locationFrom(J.at("hazard_at"));
  F.HazardLoc.Offset = J.at("hazard_offset").get<unsigned>();
  F.HasRegion = J.at("has_region").get<bool>();
  F.RegionFile = J.at("region_file").get<std::string>();
  F.RegionBeginLine = J.at("region_begin").get<unsigned>();
  F.RegionEndLine = J.at("region_end").get<unsigned>();
  F.Mode = J.at("mode").get<std::string>();
  F.Stream = J.at("stream").get<std::string>();
  for (const json &N : J.at("notes"))
    F.Notes.push_back(
        {locationFrom(N.at("at")), N.at("message").get<std::string>()});
  for (const json &R : J.at("fixes"))
    F.Fixes.push_back(
        {R.at("file").get<std::string>(), R.at("offset").get<unsigned>(),
         R.at("length").get<unsigned>(), R.at("text").get<std::string>()});
  return F;
}

json errorJson(const ReportError &E) {
  return {{"at", locationJson(E.Loc)}, {"message", E.Message}};
}

ReportError errorFrom(const json &J) {
  return {locationFrom(J.at("at")), J.at("message").get<std::string>()};
}

} // namespace capture_lint
