//===- SummaryFile.cpp - One file's results, hermetic, for `link` ---------===//

#include "SummaryFile.h"
#include "SourceText.h"
#include "UnitJson.h"
#include "UnitPaths.h"
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
static constexpr unsigned FormatVersion = 2;
/// No summary this tool writes comes near this.
static constexpr uint64_t MaxSummaryBytes = 256u << 20;

namespace {

using PathFn = llvm::function_ref<void(std::string &)>;

/// Calls \p F on every file path \p S holds.
void eachPath(SummaryFileContents &S, PathFn F) {
  F(S.Source);
  eachUnitPath(S.Unit, F);
  for (SourcePlace &P : S.Places)
    F(P.File);
}

/// Sorts what a summary lists, so its bytes do not depend on the order
/// the analysis met things in.
void sortRecords(SummaryFileContents &Contents) {
  UnitResult &U = Contents.Unit;
  llvm::sort(Contents.ImportedRoles);
  llvm::sort(Contents.Places, [](const SourcePlace &A, const SourcePlace &B) {
    return std::tie(A.File, A.Offset) < std::tie(B.File, B.Offset);
  });
  Contents.Places.erase(
      std::unique(Contents.Places.begin(), Contents.Places.end(),
                  [](const SourcePlace &A, const SourcePlace &B) {
                    return A.File == B.File && A.Offset == B.Offset;
                  }),
      Contents.Places.end());
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
  llvm::stable_sort(S.Bindings,
                    [](const SummaryBinding &A, const SummaryBinding &B) {
                      return std::tie(A.Key, A.Usr) < std::tie(B.Key, B.Usr);
                    });
  llvm::sort(S.Bodiless);
  S.Bodiless.erase(std::unique(S.Bodiless.begin(), S.Bodiless.end()),
                   S.Bodiless.end());
}

json documentOf(const SummaryFileContents &S) {
  json Findings = json::array();
  for (const ReportFinding &F : S.Unit.Findings)
    Findings.push_back(findingJson(F));
  json Errors = json::array();
  for (const ReportError &E : S.Unit.Errors)
    Errors.push_back(errorJson(E));
  json Places = json::array();
  for (const SourcePlace &P : S.Places)
    Places.push_back({P.File, P.Offset, P.Line, P.Column, P.LineText});
  json Doc = {{"format", Format},
              {"version", FormatVersion},
              {"tool", CAPTURE_LINT_VERSION},
              {"source", S.Source},
              {"imported_roles", S.ImportedRoles},
              {"findings", std::move(Findings)},
              {"errors", std::move(Errors)},
              {"summary", toJson(S.Unit.Summary)},
              {"places", std::move(Places)}};
  if (S.PythonText)
    Doc["python_text"] = *S.PythonText;
  return Doc;
}

std::string dump(const json &J) {
  return J.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

} // namespace

std::vector<SourcePlace> placesOf(const TuSummary &S) {
  std::vector<SourcePlace> Places;
  SourceFiles Files;
  TuSummary Copy = S;
  eachSummaryLoc(Copy, [&](SummaryLoc &L) {
    if (L.valid())
      Places.push_back(Files.locate(L.File, L.Offset));
  });
  return Places;
}

std::string summaryFileText(const SummaryFileContents &S,
                            llvm::StringRef Root) {
  SummaryFileContents Copy = S;
  eachPath(Copy, [&](std::string &P) {
    if (llvm::StringRef(P).starts_with(Root.rtrim('/').str() + "/"))
      P = relativeToRoot(P, Root);
  });
  sortRecords(Copy);
  return dump(documentOf(Copy));
}

/// Gives each role of \p S the places of its locations, so that an
/// analysis importing it can point into the defining file where that file
/// is absent (SummaryRole::Places).
static void placeRoles(SummaryFileContents &S) {
  std::map<std::pair<std::string, unsigned>, const SourcePlace *> ByLoc;
  for (const SourcePlace &P : S.Places)
    ByLoc[{P.File, P.Offset}] = &P;
  for (SummaryRole &R : S.Unit.Summary.Roles)
    eachRoleLoc(R, [&](SummaryLoc &L) {
      if (auto It = ByLoc.find({L.File, L.Offset}); It != ByLoc.end())
        R.Places.push_back(*It->second);
    });
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
    Out.Source = J.at("source").get<std::string>();
    Out.ImportedRoles = J.at("imported_roles").get<std::vector<std::string>>();
    for (const json &F : J.at("findings")) {
      std::optional<ReportFinding> Finding = findingFrom(F);
      if (!Finding)
        return notASummary(Path, "a finding has an unknown severity");
      Out.Unit.Findings.push_back(std::move(*Finding));
    }
    for (const json &E : J.at("errors"))
      Out.Unit.Errors.push_back(errorFrom(E));
    Out.Unit.Summary = tuSummaryFromJson(J.at("summary"));
    for (const json &P : J.at("places"))
      Out.Places.push_back({P.at(0).get<std::string>(), P.at(1).get<unsigned>(),
                            P.at(2).get<unsigned>(), P.at(3).get<unsigned>(),
                            P.at(4).get<std::string>()});
    if (J.contains("python_text"))
      Out.PythonText = J.at("python_text").get<std::string>();
    // Well-formed JSON of the wrong shape reads as something else: trust
    // the document only if writing back what was read gives it again.
    if (documentOf(Out) != J)
      return notASummary(Path, "it holds fields of the wrong shape or "
                               "unknown ones (damaged or edited?)");
  } catch (const json::exception &E) {
    return notASummary(Path, E.what());
  }
  eachPath(Out, [&](std::string &P) { P = underRoot(P, Root); });
  placeRoles(Out);
  return Out;
}

} // namespace capture_lint
