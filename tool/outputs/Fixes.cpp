//===- Fixes.cpp - Applying and exporting fix-its -------------------------===//

#include "FixGuard.h"
#include "Report.h"
#include "SafeWrite.h"

#include "clang/Tooling/Core/Diagnostic.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/YAMLTraits.h"

#include <map>
#include <set>

namespace capture_lint {

std::string fixesAsYaml(const Report &R) {
  clang::tooling::TranslationUnitDiagnostics TUD;
  for (const ReportFinding &F : R.Findings) {
    if (F.Fixes.empty())
      continue;
    clang::tooling::DiagnosticMessage Msg(F.Message);
    Msg.FilePath = F.Loc.File;
    Msg.FileOffset = F.Loc.Offset;
    for (const TextEdit &Rep : F.Fixes)
      llvm::consumeError(Msg.Fix[Rep.File].add(clang::tooling::Replacement(
          Rep.File, Rep.Offset, Rep.Length, Rep.Text)));
    TUD.Diagnostics.emplace_back(
        F.Check, Msg, llvm::SmallVector<clang::tooling::DiagnosticMessage>{},
        clang::tooling::Diagnostic::Warning, "");
  }
  // The analysed source the first fix belongs to (a header is no main
  // source file), else the first analysed source.
  for (const ReportFinding &F : R.Findings)
    for (const std::string &Source : R.AnalyzedFiles)
      if (TUD.MainSourceFile.empty() && !F.Fixes.empty() &&
          (Source == F.Loc.File || Source == F.RegionFile))
        TUD.MainSourceFile = Source;
  if (TUD.MainSourceFile.empty() && !R.AnalyzedFiles.empty())
    TUD.MainSourceFile = R.AnalyzedFiles.front();
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  llvm::yaml::Output YAML(OS);
  YAML << TUD;
  OS.flush();
  return Out;
}

/// Fixes are grouped by the file they land in, so a source reached through
/// a symlink and by its own name is edited once.
static std::string realFile(const std::string &Path) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Path, Real))
    return Path;
  return std::string(Real);
}

namespace {

/// The replacements --fix makes in one file, and the names the findings
/// gave it.
struct FileFixes {
  clang::tooling::Replacements Reps;
  unsigned Count = 0;
  std::vector<std::string> Names;
  std::set<size_t> Findings; // indices into Report::Findings
};

/// Every finding's replacements by the file they land in; a finding whose
/// replacements overlap another's is left out with a warning.
std::map<std::string, FileFixes>
collectFixes(const Report &R, std::vector<std::string> &Warnings) {
  std::map<std::string, FileFixes> PerFile;
  for (size_t I = 0; I < R.Findings.size(); ++I) {
    const ReportFinding &F = R.Findings[I];
    if (F.Fixes.empty())
      continue;
    // A finding's replacements go in together or not at all.
    std::map<std::string, FileFixes> Trial = PerFile;
    bool Ok = true;
    for (const TextEdit &Rep : F.Fixes) {
      FileFixes &In = Trial[realFile(Rep.File)];
      if (llvm::Error E = In.Reps.add(clang::tooling::Replacement(
              Rep.File, Rep.Offset, Rep.Length, Rep.Text))) {
        llvm::consumeError(std::move(E));
        Ok = false;
      }
      ++In.Count;
      In.Findings.insert(I);
      if (!llvm::is_contained(In.Names, Rep.File))
        In.Names.push_back(Rep.File);
    }
    if (!Ok) {
      Warnings.push_back(F.Loc.File + ":" + std::to_string(F.Loc.Line) +
                         ": fix not applied: it overlaps another fix");
      continue;
    }
    PerFile = std::move(Trial);
  }
  return PerFile;
}

/// Writes \p Fixes into \p File, whose text is \p Text; false when it
/// could not.
bool writeFixes(const std::string &File, llvm::StringRef Text,
                const FileFixes &Fixes, FixOutcome &Out) {
  auto Fixed = clang::tooling::applyAllReplacements(Text, Fixes.Reps);
  if (!Fixed) {
    Out.Failures.push_back("cannot apply the fixes to '" + File +
                           "': " + llvm::toString(Fixed.takeError()));
    return false;
  }
  if (llvm::Error E = writeFileSafely(File, *Fixed, WriteKind::InPlaceEdit)) {
    Out.Failures.push_back(llvm::toString(std::move(E)) + " (" +
                           std::to_string(Fixes.Count) + " fix" +
                           (Fixes.Count == 1 ? "" : "es") + " not applied)");
    return false;
  }
  Out.Applied += Fixes.Count;
  ++Out.FilesChanged;
  return true;
}

} // namespace

FixOutcome applyFixes(const Report &R, std::vector<std::string> &Warnings) {
  std::map<std::string, FileFixes> PerFile = collectFixes(R, Warnings);
  FixOutcome Out;
  if (PerFile.empty())
    return Out;
  // Under the locks, all files are checked before any is written: either
  // every file is still what was analysed, or nothing is changed.
  std::vector<std::string> Files;
  for (const auto &[File, Fixes] : PerFile)
    Files.push_back(File);
  DirectoryLocks Locks;
  if (llvm::Error E = Locks.lock(Files)) {
    Out.Failures.push_back(llvm::toString(std::move(E)));
    return Out;
  }
  std::map<std::string, std::string> Texts;
  for (const auto &[File, Fixes] : PerFile) {
    auto Text = textAsAnalysed(File, Fixes.Names, R.FilesRead);
    if (!Text)
      Out.Failures.push_back(llvm::toString(Text.takeError()) +
                             "; no fix was applied to any file: run "
                             "capture-lint again");
    else
      Texts[File] = std::move(*Text);
  }
  if (!Out.Failures.empty())
    return Out;
  // A finding is fixed when every file its fixes land in was written.
  std::set<size_t> Written, Failed;
  for (const auto &[File, Fixes] : PerFile)
    (writeFixes(File, Texts[File], Fixes, Out) ? Written : Failed)
        .insert(Fixes.Findings.begin(), Fixes.Findings.end());
  for (size_t I : Written)
    if (!Failed.count(I))
      Out.FixedFindings.push_back(I);
  return Out;
}

} // namespace capture_lint
