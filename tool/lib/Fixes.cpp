//===- Fixes.cpp - Applying and exporting fix-its, atomic file writes -----===//

#include "Report.h"

#include "clang/Tooling/Core/Diagnostic.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/YAMLTraits.h"

#include <map>

namespace capture_lint {

std::error_code writeFileAtomically(const std::string &Path,
                                    llvm::StringRef Text) {
  std::string Tmp =
      Path + ".tmp." + std::to_string(llvm::sys::Process::getProcessId());
  std::error_code EC;
  {
    llvm::raw_fd_ostream OS(Tmp, EC);
    if (EC)
      return EC;
    OS << Text;
    OS.close();
    EC = OS.error();
  }
  if (!EC)
    EC = llvm::sys::fs::rename(Tmp, Path);
  if (EC)
    llvm::sys::fs::remove(Tmp);
  return EC;
}

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

unsigned applyFixes(const Report &R, std::vector<std::string> &Warnings,
                    unsigned &FilesChanged) {
  std::map<std::string, clang::tooling::Replacements> PerFile;
  unsigned Applied = 0;
  for (const ReportFinding &F : R.Findings) {
    // A finding's replacements go in together or not at all.
    std::map<std::string, clang::tooling::Replacements> Trial = PerFile;
    bool Ok = true;
    for (const ReportReplacement &Rep : F.Fixes) {
      if (llvm::Error E = Trial[Rep.File].add(clang::tooling::Replacement(
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
    Applied += F.Fixes.size();
  }
  FilesChanged = 0;
  for (auto &[File, Reps] : PerFile) {
    auto Buf = llvm::MemoryBuffer::getFile(File);
    if (!Buf) {
      Warnings.push_back(File +
                         ": cannot read to fix: " + Buf.getError().message());
      continue;
    }
    auto Fixed =
        clang::tooling::applyAllReplacements((*Buf)->getBuffer(), Reps);
    if (!Fixed) {
      Warnings.push_back(
          File + ": cannot apply fixes: " + llvm::toString(Fixed.takeError()));
      continue;
    }
    if (std::error_code EC = writeFileAtomically(File, *Fixed)) {
      Warnings.push_back(File + ": cannot write fixes: " + EC.message());
      continue;
    }
    ++FilesChanged;
  }
  return Applied;
}

} // namespace capture_lint
