//===- PythonDiagnostics.cpp - Findings of a .py document as LSP ----------===//

#include "PythonDiagnostics.h"
#include "EnabledChecks.h"
#include "LspTransport.h"
#include "PyprojectConfig.h"
#include "PythonGuard.h"

#include "capture_lint/ProjectConfig.h"
#include "capture_lint/python/PyAnalysis.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using nlohmann::json;

namespace capture_lint {

std::string pathOfUri(const std::string &Uri) {
  const std::string Prefix = "file://";
  if (Uri.rfind(Prefix, 0) != 0)
    return "";
  std::string Path;
  for (size_t I = Prefix.size(); I < Uri.size(); ++I) {
    if (Uri[I] == '%' && I + 2 < Uri.size() && llvm::isHexDigit(Uri[I + 1]) &&
        llvm::isHexDigit(Uri[I + 2])) {
      Path += static_cast<char>(std::stoi(Uri.substr(I + 1, 2), nullptr, 16));
      I += 2;
    } else {
      Path += Uri[I];
    }
  }
  return Path;
}

/// An LSP position: 0-based, in UTF-16 code units of \p LineText.
static json position(unsigned Line, const std::string &LineText,
                     unsigned Column) {
  return {{"line", Line ? Line - 1 : 0},
          {"character", utf16Column(LineText, Column) - 1}};
}

json documentError(const std::string &Message) {
  return {
      {"range", {{"start", position(1, "", 1)}, {"end", position(1, "", 1)}}},
      {"severity", 1},
      {"source", "capture-lint"},
      {"message", Message}};
}

/// One finding: its line from the column on, its notes as related
/// information.
static json diagnosticOf(const Finding &F) {
  json Related = json::array();
  for (const FindingNote &N : F.Notes) {
    json At = position(N.Loc.Line, N.Loc.LineText, N.Loc.Column);
    Related.push_back({{"location",
                        {{"uri", "file://" + N.Loc.File},
                         {"range", {{"start", At}, {"end", At}}}}},
                       {"message", N.Message}});
  }
  // LSP severities as clangd gives them (a remark is a hint).
  int Severity = F.Level == Severity::Error     ? 1
                 : F.Level == Severity::Warning ? 2
                                                : 4;
  return {{"range",
           {{"start", position(F.Loc.Line, F.Loc.LineText, F.Loc.Column)},
            {"end", position(F.Loc.Line, F.Loc.LineText,
                             unsigned(F.Loc.LineText.size()) + 1)}}},
          {"severity", Severity},
          {"code", F.Check},
          {"source", "capture-lint"},
          {"message", F.Message},
          {"relatedInformation", Related}};
}

json pythonDiagnostics(const std::string &Path,
                       const std::map<std::string, std::string> &Open,
                       const PythonLspSettings &Settings) {
  json Diags = json::array();
  auto Cat = effectiveCatalog(Path, Settings.Catalogs);
  if (!Cat) {
    Diags.push_back(documentError(llvm::toString(Cat.takeError())));
    return Diags;
  }
  std::vector<std::string> Checks = enabledChecks(Settings.ChecksGlob);
  python::PyOptions Opts;
  Opts.MaxCallDepth = Settings.MaxCallDepth;
  Opts.Overrides = Open;
  Opts.CheckEnabled = [&](const std::string &C) {
    return std::find(Checks.begin(), Checks.end(), C) != Checks.end();
  };
  python::PyResult R = analyzePythonGuarded({Path}, **Cat, Opts);
  for (const python::PyError &E : R.Errors)
    if (E.File == Path)
      Diags.push_back(documentError(E.Message));
  for (const Finding &F : R.Findings)
    if (F.Loc.File == Path)
      Diags.push_back(diagnosticOf(F));
  return Diags;
}

PythonLspSettings pythonSettingsFor(const std::string &Path,
                                    std::string &Error) {
  PythonLspSettings S;
  auto C = findPyprojectConfig(llvm::sys::path::parent_path(Path));
  if (!C) {
    Error = llvm::toString(C.takeError());
    return S;
  }
  S.Catalogs = C->Catalogs;
  if (C->Checks)
    S.ChecksGlob = *C->Checks;
  if (C->MaxCallDepth)
    S.MaxCallDepth = *C->MaxCallDepth;
  return S;
}

} // namespace capture_lint
