//===- Summarize.cpp - capture-lint summarize -----------------------------===//
//
//   capture-lint summarize FILE -o SUMMARY [--root DIR]
//                          [--import-roles SUMMARY|@LIST]...
//                          [-p BUILD_DIR | -- FLAGS]
//
// One build action: analyses FILE with FLAGS (or its command in BUILD_DIR's
// compile database; the defaults without either),
// with the roles the named summaries give the functions it calls without
// their body, and writes its findings and whole-program summary. Findings
// do not fail the action (the link step reports them); exit 2 only when
// the input or the output is unusable.
//
//===----------------------------------------------------------------------===//

#include "Delivery.h"
#include "Paths.h"
#include "Runner.h"
#include "Subcommands.h"

#include "llvm/Support/raw_ostream.h"

namespace capture_lint {

/// The options a summary ignores, refused rather than silently dropped.
static void refuseReportOptions(const Options &O) {
  std::pair<bool, const char *> Refused[] = {
      {O.Format != "text", "--format (the link step formats the report)"},
      {!O.Baseline.empty() || !O.WriteBaseline.empty(),
       "--baseline/--write-baseline (give them to link)"},
      {!O.Confirm.empty(), "--confirm (give it to link)"},
      {O.Fix || !O.ExportFixes.empty(), "--fix/--export-fixes"}};
  for (const auto &[Given, What] : Refused)
    if (Given)
      usageError(std::string("summarize does not take ") + What);
}

static void printErrors(const Report &R) {
  for (const ReportError &E : R.Errors)
    llvm::errs() << "capture-lint: error: "
                 << (E.Loc.File.empty() ? "" : E.Loc.File + ": ") << E.Message
                 << "\n";
}

int runSummarize(Options &O) {
  refuseReportOptions(O);
  if (O.Run.Files.size() != 1)
    usageError("summarize takes one FILE, the source to summarize (" +
               std::to_string(O.Run.Files.size()) + " given)");
  if (O.Output.empty())
    usageError("summarize needs -o SUMMARY, the file to write");
  std::vector<UnitResult> RoleSources;
  if (llvm::Error E = prepareSummary(O, RoleSources)) {
    llvm::errs() << "capture-lint: error: --import-roles: "
                 << llvm::toString(std::move(E)) << "\n";
    return exitWith(O, 2);
  }
  Report R;
  std::optional<SummaryFileContents> S = summarizeFile(O.Run, RoleSources, R);
  if (!S) {
    printErrors(R);
    return exitWith(O, 2);
  }
  if (!writeSummary(O, *S, O.Output))
    return exitWith(O, 2);
  const UnitResult *U = &S->Unit;
  if (!O.Quiet && S->PythonText)
    llvm::errs() << "capture-lint: summarized '" << O.Run.Files.front()
                 << "': a Python module, analysed with the others when "
                    "linked\n";
  else if (!O.Quiet)
    llvm::errs() << "capture-lint: summarized '" << O.Run.Files.front()
                 << "': " << U->Findings.size() << " finding"
                 << (U->Findings.size() == 1 ? "" : "s") << ", "
                 << U->Errors.size() << " error"
                 << (U->Errors.size() == 1 ? "" : "s") << ", "
                 << U->Summary.Functions.size() << " function"
                 << (U->Summary.Functions.size() == 1 ? "" : "s")
                 << " summarised"
                 << (R.FilesWithImportedRoles ? " (with imported roles)" : "")
                 << "\n";
  return exitWith(O, 0);
}

} // namespace capture_lint
