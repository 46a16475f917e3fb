//===- SummaryFile.cpp - One file's results, hermetic, for `link` ---------===//

#include "SummaryFile.h"
#include "UnitJson.h"
#include "Version.h"
#include "capture_lint/BoundedRead.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"

#include <nlohmann/json.hpp>

#include <tuple>

using nlohmann::json;

namespace capture_lint {

static constexpr const char *Format = "capture-lint-summary";
/// Bumped whenever the document changes shape or meaning.
static constexpr unsigned FormatVersion = 1;
/// No summary this tool writes comes near this.
static constexpr uint64_t MaxSummaryBytes = 256u << 20;

namespace {

using PathFn = llvm::function_ref<void(std::string &)>;

void eachPath(SummaryLoc &L, PathFn F) { F(L.File); }

void eachPath(std::vector<SummaryNote> &Notes, PathFn F) {
  for (SummaryNote &N : Notes)
    F(N.Loc.File);
}

void eachPath(SummaryHazard &H, PathFn F) {
  F(H.Loc.File);
  F(H.CallSite.File);
  eachPath(H.Chain, F);
  eachPath(H.Extra, F);
}

void eachPath(SummaryCapture &C, PathFn F) {
  F(C.BeginLoc.File);
  eachPath(C.Chain, F);
}

/// Calls \p F on every file path \p U holds.
void eachPath(UnitResult &U, PathFn F) {
  for (ReportFinding &R : U.Findings) {
    F(R.Loc.File);
    F(R.HazardLoc.File);
    F(R.RegionFile);
    for (FindingNote &N : R.Notes)
      F(N.Loc.File);
    for (TextEdit &E : R.Fixes)
      F(E.File);
  }
  for (ReportError &E : U.Errors)
    F(E.Loc.File);
  for (SummaryFunction &Fn : U.Summary.Functions)
    for (SummaryHazard &H : Fn.Hazards)
      eachPath(H, F);
  for (SummaryUse &Use : U.Summary.Uses) {
    F(Use.Region.BeginLoc.File);
    eachPath(Use.Region.Origin, F);
    F(Use.Region.End.File);
    eachPath(Use.Call, F);
  }
  for (SummaryRole &R : U.Summary.Roles) {
    if (R.Opens)
      eachPath(*R.Opens, F);
    for (SummaryWrap &W : R.Wraps) {
      eachPath(W.Capture, F);
      F(W.InvokeLoc.File);
    }
  }
}

/// Sorts what a summary lists, so its bytes do not depend on the order
/// the analysis met things in.
void sortRecords(UnitResult &U) {
  llvm::stable_sort(
      U.Findings, [](const ReportFinding &A, const ReportFinding &B) {
        return std::tie(A.Loc.File, A.Loc.Offset, A.Check, A.Message) <
               std::tie(B.Loc.File, B.Loc.Offset, B.Check, B.Message);
      });
  llvm::stable_sort(U.Errors, [](const ReportError &A, const ReportError &B) {
    return std::tie(A.Loc.File, A.Loc.Line, A.Loc.Column, A.Message) <
           std::tie(B.Loc.File, B.Loc.Line, B.Loc.Column, B.Message);
  });
  TuSummary &S = U.Summary;
  llvm::stable_sort(S.Functions,
                    [](const SummaryFunction &A, const SummaryFunction &B) {
                      return A.Usr < B.Usr;
                    });
  llvm::stable_sort(S.Uses, [](const SummaryUse &A, const SummaryUse &B) {
    return std::tie(A.Call.Loc.File, A.Call.Loc.Offset, A.Call.Api) <
           std::tie(B.Call.Loc.File, B.Call.Loc.Offset, B.Call.Api);
  });
  llvm::stable_sort(S.Roles, [](const SummaryRole &A, const SummaryRole &B) {
    return A.Usr < B.Usr;
  });
  llvm::sort(S.Bodiless);
  S.Bodiless.erase(std::unique(S.Bodiless.begin(), S.Bodiless.end()),
                   S.Bodiless.end());
}

json documentOf(const std::string &Source, const UnitResult &U,
                const std::vector<std::string> &ImportedRoles) {
  json Findings = json::array();
  for (const ReportFinding &F : U.Findings)
    Findings.push_back(findingJson(F));
  json Errors = json::array();
  for (const ReportError &E : U.Errors)
    Errors.push_back(errorJson(E));
  return {{"format", Format},
          {"version", FormatVersion},
          {"tool", CAPTURE_LINT_VERSION},
          {"source", Source},
          {"imported_roles", ImportedRoles},
          {"findings", std::move(Findings)},
          {"errors", std::move(Errors)},
          {"summary", toJson(U.Summary)}};
}

std::string dump(const json &J) {
  return J.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

} // namespace

std::string summaryFileText(const SummaryFileContents &S,
                            llvm::StringRef Root) {
  UnitResult Copy = S.Unit;
  std::string Prefix = Root.rtrim('/').str() + "/";
  auto Relative = [&](std::string &P) {
    if (llvm::StringRef(P).starts_with(Prefix))
      P = P.substr(Prefix.size());
  };
  eachPath(Copy, Relative);
  std::string Rel = S.Source;
  Relative(Rel);
  sortRecords(Copy);
  std::vector<std::string> Imported = S.ImportedRoles;
  llvm::sort(Imported);
  return dump(documentOf(Rel, Copy, Imported));
}

static llvm::Error notASummary(const std::string &Path,
                               const std::string &Why) {
  return llvm::createStringError(std::errc::invalid_argument,
                                 "'%s' is not a usable capture-lint summary: "
                                 "%s",
                                 Path.c_str(), Why.c_str());
}

/// The header of \p J: an error unless it is a summary of this format and
/// this capture-lint version.
static llvm::Error checkHeader(const json &J, const std::string &Path) {
  if (!J.is_object() || J.value("format", json()) != Format)
    return notASummary(Path, "it has no \"format\": \"" + std::string(Format) +
                                 "\" (write summaries with `capture-lint "
                                 "summarize`)");
  if (J.value("version", json()) != FormatVersion)
    return notASummary(
        Path, "format version " + J.value("version", json()).dump() +
                  ", this capture-lint reads version " +
                  std::to_string(FormatVersion) + "; summarize the file again");
  json Tool = J.value("tool", json());
  if (!Tool.is_string())
    return notASummary(Path, "it does not say which capture-lint wrote it");
  if (Tool != CAPTURE_LINT_VERSION)
    return notASummary(Path, "written by capture-lint " +
                                 Tool.get<std::string>() + ", this is " +
                                 CAPTURE_LINT_VERSION +
                                 "; summarize the file again");
  return llvm::Error::success();
}

llvm::Expected<SummaryFileContents> readSummaryFile(const std::string &Path,
                                                    llvm::StringRef Root) {
  auto Text = readRegularFile(Path, MaxSummaryBytes);
  if (!Text)
    return Text.takeError();
  SummaryFileContents Out;
  try {
    json J = json::parse(*Text);
    if (llvm::Error E = checkHeader(J, Path))
      return std::move(E);
    std::string Source = J.at("source").get<std::string>();
    for (const json &F : J.at("findings")) {
      std::optional<ReportFinding> Finding = findingFrom(F);
      if (!Finding)
        return notASummary(Path, "a finding has an unknown severity");
      Out.Unit.Findings.push_back(std::move(*Finding));
    }
    for (const json &E : J.at("errors"))
      Out.Unit.Errors.push_back(errorFrom(E));
    Out.Unit.Summary = tuSummaryFromJson(J.at("summary"));
    Out.ImportedRoles = J.at("imported_roles").get<std::vector<std::string>>();
    // Well-formed JSON of the wrong shape reads as something else: trust
    // the document only if writing back what was read gives it again.
    if (documentOf(Source, Out.Unit, Out.ImportedRoles) != J)
      return notASummary(Path, "it holds fields of the wrong shape or "
                               "unknown ones (damaged or edited?)");
    Out.Source = std::move(Source);
  } catch (const json::exception &E) {
    return notASummary(Path, E.what());
  }
  auto Absolute = [&](std::string &P) {
    if (!P.empty() && !llvm::sys::path::is_absolute(P)) {
      llvm::SmallString<256> Full(Root);
      llvm::sys::path::append(Full, P);
      P = std::string(Full);
    }
  };
  eachPath(Out.Unit, Absolute);
  Absolute(Out.Source);
  return Out;
}

} // namespace capture_lint
