//===- SummaryRuns.cpp - capture-lint summarize and link ------------------===//
//
// The per-file and global phases as two steps (docs/scale.md): summarize
// runs phase one on one file (C++ through clang; a Python module's summary
// is its text) and keeps its summary; link reads summaries only, puts the
// Python modules together as one program and runs phase two across files
// and languages.
//
//===----------------------------------------------------------------------===//

#include "NativeJoin.h"
#include "PythonRunner.h"
#include "RoleImport.h"
#include "RunPhases.h"
#include "SummaryFile.h"
#include "capture_lint/NameList.h"

#include "llvm/Support/Path.h"

#include <algorithm>

namespace capture_lint {

std::optional<SummaryFileContents>
summarizeFile(const RunConfig &Config,
              const std::vector<UnitResult> &RoleSources, Report &R) {
  auto Loaded = loadDatabase(Config, R);
  if (!Config.BuildDir.empty() && !Loaded)
    return std::nullopt;
  CommandDatabase DB;
  std::vector<std::string> Files, PythonInputs;
  collectInputs(Config, Loaded.get(), R, DB, Files, PythonInputs);
  if (PythonInputs.size() == 1 && Files.empty() && R.Errors.empty())
    return summarizePythonFile(PythonInputs.front(), R);
  if (Files.size() != 1 || !R.Errors.empty())
    return std::nullopt;
  UnitKeys Keys{settingsKey(Config), &Config};
  UnitRun Run = analyzeUnits(Files, DB, Config, nullptr, Keys, R.CacheErrors);
  SummaryFileContents Out;
  Out.Source = Files.front();
  std::vector<const TuSummary *> Known = {&Run.Units.front().Summary};
  for (const UnitResult &U : RoleSources)
    Known.push_back(&U.Summary);
  if (auto Imports = roleImportsFor({Known.front()}, Known).front())
    for (const auto &[Usr, Role] : *Imports)
      Out.ImportedRoles.push_back(Usr);
  R.FilesWithImportedRoles = analyzeWithImportedRoles(
      Files, DB, Config, nullptr, Keys, RoleSources, Run, R.CacheErrors);
  Report Unit;
  reportUnits(Files, Run, Unit);
  Out.Unit.Findings = std::move(Unit.Findings);
  Out.Unit.Errors = std::move(Unit.Errors);
  Out.Unit.Summary = std::move(Run.Units.front().Summary);
  Out.Places = placesOf(Out.Unit.Summary);
  return Out;
}

/// The functions \p S's file calls with a role some linked summary gives,
/// whose roles its analysis did not import (by name).
static std::vector<std::string> rolesMissing(const SummaryFileContents &S,
                                             const RoleImports *Needed) {
  std::vector<std::string> Names;
  if (Needed)
    for (const auto &[Usr, Role] : *Needed)
      if (!std::binary_search(S.ImportedRoles.begin(), S.ImportedRoles.end(),
                              Usr))
        Names.push_back(Role.Name);
  return Names;
}

/// One line naming the files whose summaries were written without roles
/// that other linked summaries give the functions they call: linking
/// cannot analyse them again.
static std::string
rolesNotImportedWarning(const std::vector<std::string> &Files,
                        const std::vector<std::string> &Functions) {
  std::string W =
      std::to_string(Files.size()) + " file" +
      (Files.size() == 1 ? " calls" : "s call") + " '" + Functions.front() +
      "'" +
      (Functions.size() > 1
           ? " and " + std::to_string(Functions.size() - 1) + " more function" +
                 (Functions.size() == 2 ? "" : "s")
           : std::string()) +
      ", which other files define with a role (begin, end or "
      "test a capture, run a callable under one), but " +
      (Files.size() == 1 ? "its summary was" : "their summaries were") +
      " written without those roles, so regions opened there "
      "were not found: ";
  std::vector<std::string> Names;
  for (const std::string &F : Files)
    Names.push_back("'" + llvm::sys::path::filename(F).str() + "'");
  return W + firstFew(Names) + "; summarize " +
         (Files.size() == 1 ? "it" : "them") +
         " again with --import-roles naming the summaries of the files "
         "that define those functions (docs/scale.md)";
}

/// The warning for the summaries among \p Summaries that lack roles the
/// others give ("" when none does).
static std::string
missingRoles(const std::vector<SummaryFileContents> &Summaries) {
  std::vector<const TuSummary *> All;
  for (const SummaryFileContents &S : Summaries)
    All.push_back(&S.Unit.Summary);
  auto Imports = roleImportsFor(All, All);
  std::vector<std::string> Files, Functions;
  for (size_t I = 0; I < Summaries.size(); ++I) {
    std::vector<std::string> Missing =
        rolesMissing(Summaries[I], Imports[I].get());
    if (Missing.empty())
      continue;
    Files.push_back(Summaries[I].Source);
    for (std::string &Name : Missing)
      if (!llvm::is_contained(Functions, Name))
        Functions.push_back(std::move(Name));
  }
  return Files.empty() ? "" : rolesNotImportedWarning(Files, Functions);
}

Report linkSummaries(const RunConfig &Config,
                     std::vector<SummaryFileContents> Summaries,
                     llvm::StringRef Root) {
  Report R;
  std::string RolesWarning = missingRoles(Summaries);
  if (!RolesWarning.empty())
    R.Warnings.push_back(std::move(RolesWarning));
  std::vector<std::string> Files, PythonFiles;
  UnitRun Run;
  SourceFiles Places(/*ReadFiles=*/false);
  PythonJoin Py;
  for (SummaryFileContents &S : Summaries) {
    if (S.PythonText) {
      PythonFiles.push_back(S.Source);
      Py.Texts[S.Source] = std::move(*S.PythonText);
      continue;
    }
    Files.push_back(std::move(S.Source));
    Run.Units.push_back(std::move(S.Unit));
    for (const SourcePlace &P : S.Places)
      Places.remember(P);
  }
  Run.FromCache.assign(Files.size(), 0);
  Run.Crashed.assign(Files.size(), 0);
  Run.TooDeep.assign(Files.size(), 0);
  reportUnits(Files, Run, R);
  std::vector<const TuSummary *> Cpp = summariesOf(Run, {});
  Py.NativeKeys = boundNames(Cpp);
  Py.Files = modulesOnly(Py.Texts);
  Py.Root = Root.str();
  runPython(PythonFiles, Config, R, &Py);
  TuSummary FromPython = nativeUses(Py.NativeCalls, Cpp, Places);
  joinAcrossUnits(Config, Run, {}, /*HaveDatabase=*/true, R, &Places,
                  &FromPython);
  sortFindings(R);
  return R;
}

} // namespace capture_lint
