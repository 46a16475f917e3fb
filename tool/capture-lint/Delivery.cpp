//===- Delivery.cpp - What a run does with its report ---------------------===//

#include "Delivery.h"
#include "Baseline.h"
#include "OutputGuard.h"
#include "SafeWrite.h"
#include "TidyCompat.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

namespace capture_lint {

bool writeOutput(const std::string &Path, const std::string &Text) {
  llvm::Error E = Path.empty() || Path == "-" ? writeStdout(Text)
                                              : writeFileSafely(Path, Text);
  if (!E)
    return true;
  llvm::errs() << "capture-lint: error: " << llvm::toString(std::move(E))
               << "\n";
  return false;
}

bool outputsSpareInputs(const Options &O,
                        const std::vector<std::string> &Inputs) {
  llvm::Error E =
      checkOutputsAreNotInputs({{"-o", O.Output},
                                {"--write-baseline", O.WriteBaseline},
                                {"--export-fixes", O.ExportFixes},
                                {"--roles-out", O.RolesOut},
                                {"--exit-code-file", O.ExitCodeFile}},
                               Inputs);
  if (!E)
    return true;
  llvm::errs() << "capture-lint: error: " << llvm::toString(std::move(E))
               << "\n";
  return false;
}

/// A cache that cannot be written is an error (exit 2): once, with the
/// first entry's reason, however many entries failed the same way.
static void reportCacheErrors(const std::vector<std::string> &Errors) {
  if (Errors.empty())
    return;
  llvm::errs() << "capture-lint: error: cache: " << Errors.front();
  if (Errors.size() > 1)
    llvm::errs() << " (and " << Errors.size() - 1 << " more entr"
                 << (Errors.size() == 2 ? "y" : "ies") << ")";
  llvm::errs() << "; the findings above are complete, but nothing was "
                  "cached\n";
}

/// Colours in the text report: --use-color, else when stdout is a
/// terminal that has them and the report goes there.
static bool useColor(const Options &O) {
  if (O.UseColor)
    return *O.UseColor;
  return (O.Output.empty() || O.Output == "-") &&
         llvm::sys::Process::StandardOutHasColors();
}

/// The report in its format (to -o or stdout), exported fixes and --fix
/// (what it did in \p Fixed). False when something could not be written.
static bool writeReport(Report &R, const Options &O, FixOutcome &Fixed) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  if (O.Format == "json")
    writeJson(R, OS);
  else if (O.Format == "sarif")
    writeSarif(R, OS, O.SarifRoot);
  else if (O.Format == "github")
    writeGithub(R, OS);
  else
    writeText(R, OS, useColor(O));
  OS.flush();
  bool Written = writeOutput(O.Output, Text);
  if (!O.ExportFixes.empty())
    Written = writeOutput(O.ExportFixes, fixesAsYaml(R)) && Written;
  if (O.Fix) {
    Fixed = applyFixes(R, R.Warnings);
    llvm::errs() << "capture-lint: applied " << Fixed.Applied << " fix"
                 << (Fixed.Applied == 1 ? "" : "es") << " to "
                 << Fixed.FilesChanged << " file"
                 << (Fixed.FilesChanged == 1 ? "" : "s") << "\n";
    for (const std::string &Failure : Fixed.Failures)
      llvm::errs() << "capture-lint: error: --fix: " << Failure << "\n";
    Written = Written && Fixed.Failures.empty();
  }
  return Written;
}

/// Of the findings that fail the run, those --fix fixed.
static unsigned fixedFailing(const Report &R, const FixOutcome &Fixed) {
  unsigned N = 0;
  for (size_t I : Fixed.FixedFindings)
    N += R.Findings[I].Level != Severity::Remark;
  return N;
}

/// --statistics: findings and remarks per check, most frequent first.
static void printStatistics(const Report &R) {
  std::map<std::string, std::pair<unsigned, unsigned>> PerCheck;
  for (const ReportFinding &F : R.Findings)
    ++(F.Level == Severity::Remark ? PerCheck[F.Check].second
                                   : PerCheck[F.Check].first);
  std::vector<std::pair<std::string, std::pair<unsigned, unsigned>>> Rows(
      PerCheck.begin(), PerCheck.end());
  std::stable_sort(Rows.begin(), Rows.end(), [](const auto &A, const auto &B) {
    return A.second.first + A.second.second > B.second.first + B.second.second;
  });
  for (const auto &[Check, Counts] : Rows) {
    llvm::errs() << llvm::format("%6u", Counts.first) << "  " << Check;
    if (Counts.second)
      llvm::errs() << " (and " << Counts.second << " remark"
                   << (Counts.second == 1 ? "" : "s") << ")";
    llvm::errs() << "\n";
  }
}

/// The last line: files, findings, remarks, verdicts and errors.
static void printSummary(const Report &R, unsigned Baselined,
                         const FixOutcome &Fixed) {
  unsigned Remarks = R.Findings.size() + R.Missed.size() - R.failingFindings();
  llvm::errs() << "capture-lint: " << R.FilesAnalyzed << " file"
               << (R.FilesAnalyzed == 1 ? "" : "s") << " analysed";
  std::vector<std::string> How;
  if (R.FilesFromCache)
    How.push_back(std::to_string(R.FilesFromCache) +
                  " unchanged, from the cache");
  if (R.FilesWithImportedRoles)
    How.push_back(std::to_string(R.FilesWithImportedRoles) +
                  " again with the roles of functions other files define");
  if (!How.empty())
    llvm::errs() << " (" << llvm::join(How, "; ") << ")";
  if (R.OtherFilesSummarized)
    llvm::errs() << " and " << R.OtherFilesSummarized << " other file"
                 << (R.OtherFilesSummarized == 1 ? "" : "s")
                 << " of the database summarised for calls into them";
  unsigned Left = R.failingFindings() - fixedFailing(R, Fixed);
  llvm::errs() << ", " << Left << " finding" << (Left == 1 ? "" : "s");
  if (!Fixed.FixedFindings.empty())
    llvm::errs() << " left (" << Fixed.FixedFindings.size() << " fixed)";
  if (Baselined)
    llvm::errs() << " (" << Baselined << " more in the baseline)";
  if (Remarks)
    llvm::errs() << " and " << Remarks << " remark"
                 << (Remarks == 1 ? "" : "s");
  if (R.Confirmed) {
    std::map<std::string, unsigned> Count;
    for (const ReportFinding &F : R.Findings)
      ++Count[F.Verdict.Status];
    llvm::errs() << "; runtime verdicts: " << Count["confirmed"]
                 << " confirmed, " << Count["not-confirmed"]
                 << " not confirmed, " << Count["not-reached"]
                 << " not reached; " << R.Missed.size() << " missed statically";
  }
  if (!R.Errors.empty()) {
    // Compiler diagnostics and problems with inputs, by file: a file with
    // errors may still have been analysed in part.
    std::set<std::string> InFiles;
    for (const ReportError &E : R.Errors)
      InFiles.insert(E.Loc.File);
    llvm::errs() << ", " << R.Errors.size() << " error"
                 << (R.Errors.size() == 1 ? "" : "s") << " in "
                 << InFiles.size() << " file"
                 << (InFiles.size() == 1 ? "" : "s")
                 << " (findings there may be incomplete)";
  }
  llvm::errs() << "\n";
}

int exitWith(const Options &O, int Code) {
  if (O.ExitCodeFile.empty())
    return Code;
  if (llvm::Error E =
          writeFileSafely(O.ExitCodeFile, std::to_string(Code) + "\n")) {
    llvm::errs() << "capture-lint: error: --exit-code-file: "
                 << llvm::toString(std::move(E)) << "\n";
    return 2;
  }
  // Findings are a result the file holds; the action that wrote it
  // succeeded (and stays cacheable). A run that could not do its job fails.
  return Code == 1 ? 0 : Code;
}

/// The configuration's filters, --write-baseline, --baseline and
/// --confirm; an exit status when the run ends here, else nothing.
/// \p Baselined counts the findings the baseline removed.
static std::optional<int>
filterReport(Report &R, const Options &O,
             const clang::tidy::ClangTidyGlobalOptions &LineFilter,
             unsigned &Baselined) {
  applyConfiguredChecks(R, O.Run);
  applyConfiguredHeaderFilter(R, O.Run,
                              O.HeaderFilterGiven ? &O.HeaderFilter : nullptr);
  applyLineFilter(R, LineFilter);
  applyWarningsAsErrors(R, O.WarningsAsErrors);
  // Nor over a file the analysis read (a header, an imported module).
  if (!outputsSpareInputs(O, filesReadBy(R)))
    return 2;
  if (!O.WriteBaseline.empty()) {
    if (!writeOutput(O.WriteBaseline, baselineJson(R, O.WriteBaseline)))
      return 2;
    llvm::errs() << "capture-lint: wrote a baseline of " << R.Findings.size()
                 << " finding" << (R.Findings.size() == 1 ? "" : "s") << " to '"
                 << O.WriteBaseline << "'\n";
    return R.Errors.empty() ? 0 : 2;
  }
  if (!O.Baseline.empty()) {
    auto Removed = applyBaseline(R, O.Baseline);
    if (!Removed) {
      llvm::errs() << "capture-lint: error: "
                   << llvm::toString(Removed.takeError()) << "\n";
      return 2;
    }
    Baselined = *Removed;
  }

  if (!O.Confirm.empty()) {
    std::string Error = confirmWithProbe(R, O.Confirm);
    if (!Error.empty()) {
      llvm::errs() << "capture-lint: error: --confirm: " << Error << "\n";
      return 2;
    }
  }

  return std::nullopt;
}

int deliverReport(Report &R, const Options &O,
                  const clang::tidy::ClangTidyGlobalOptions &LineFilter) {
  unsigned Baselined = 0;
  if (std::optional<int> Ended = filterReport(R, O, LineFilter, Baselined))
    return exitWith(O, *Ended);
  FixOutcome Fixed;
  bool Written = writeReport(R, O, Fixed);

  for (const std::string &W : R.Warnings)
    llvm::errs() << "capture-lint: warning: " << W << "\n";
  reportCacheErrors(R.CacheErrors);
  if (!O.Quiet)
    printSummary(R, Baselined, Fixed);
  if (O.Statistics)
    printStatistics(R);
  if (!Written || !R.Errors.empty() || !R.CacheErrors.empty())
    return exitWith(O, 2);
  // Findings --fix fixed no longer fail the run.
  bool Failing = R.failingFindings() > fixedFailing(R, Fixed);
  return exitWith(O, Failing && !O.ReportOnly ? 1 : 0);
}

} // namespace capture_lint
