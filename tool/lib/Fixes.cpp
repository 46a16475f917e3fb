//===- Fixes.cpp - Applying and exporting fix-its -------------------------===//

#include "Report.h"
#include "SafeWrite.h"

#include "clang/Tooling/Core/Diagnostic.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/YAMLTraits.h"

#include <map>

namespace capture_lint {

std::string fixesAsYaml(const Report &R) {
  clang::tooling::TranslationUnitDiagnostics TUD;
  for (const ReportFinding &F : R.Findings) {
    if (F.Fixes.empty())
      continue;
    clang::tooling::DiagnosticMessage Msg(F.Message);
    Msg.FilePath = F.Loc.File;
    Msg.FileOffset = F.Offset;
    for (const ReportReplacement &Rep : F.Fixes)
      llvm::consumeError(Msg.Fix[Rep.File].add(clang::tooling::Replacement(
          Rep.File, Rep.Offset, Rep.Length, Rep.Text)));
    TUD.Diagnostics.emplace_back(
        F.Check, Msg, llvm::SmallVector<clang::tooling::DiagnosticMessage>{},
        clang::tooling::Diagnostic::Warning, "");
  }
  if (!R.Findings.empty())
    TUD.MainSourceFile = R.Findings.front().Loc.File;
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

FixOutcome applyFixes(const Report &R, std::vector<std::string> &Warnings) {
  std::map<std::string, clang::tooling::Replacements> PerFile;
  std::map<std::string, unsigned> PerFileCount;
  FixOutcome Out;
  for (const ReportFinding &F : R.Findings) {
    // A finding's replacements go in together or not at all.
    std::map<std::string, clang::tooling::Replacements> Trial = PerFile;
    bool Ok = true;
    for (const ReportReplacement &Rep : F.Fixes) {
      if (llvm::Error E =
              Trial[realFile(Rep.File)].add(clang::tooling::Replacement(
                  Rep.File, Rep.Offset, Rep.Length, Rep.Text))) {
        llvm::consumeError(std::move(E));
        Ok = false;
      }
    }
    if (F.Fixes.empty())
      continue;
    if (!Ok) {
      Warnings.push_back(F.Loc.File + ":" + std::to_string(F.Loc.Line) +
                         ": fix not applied: it overlaps another fix");
      continue;
    }
    PerFile = std::move(Trial);
    for (const ReportReplacement &Rep : F.Fixes)
      ++PerFileCount[realFile(Rep.File)];
  }
  for (auto &[File, Reps] : PerFile) {
    auto Buf = llvm::MemoryBuffer::getFile(File);
    if (!Buf) {
      Out.Failures.push_back("cannot read '" + File +
                             "' to fix it: " + Buf.getError().message());
      continue;
    }
    auto Fixed =
        clang::tooling::applyAllReplacements((*Buf)->getBuffer(), Reps);
    if (!Fixed) {
      Out.Failures.push_back("cannot apply the fixes to '" + File +
                             "': " + llvm::toString(Fixed.takeError()));
      continue;
    }
    if (llvm::Error E = writeFileSafely(File, *Fixed, WriteKind::InPlaceEdit)) {
      Out.Failures.push_back(llvm::toString(std::move(E)) + " (" +
                             std::to_string(PerFileCount[File]) + " fix" +
                             (PerFileCount[File] == 1 ? "" : "es") +
                             " not applied)");
      continue;
    }
    Out.Applied += PerFileCount[File];
    ++Out.FilesChanged;
  }
  return Out;
}

} // namespace capture_lint
