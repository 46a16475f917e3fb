//===- Link.cpp - capture-lint link ---------------------------------------===//
//
//   capture-lint link SUMMARY... [@LIST] [--root DIR] [-o REPORT]
//                     [--format F] [--exit-code-file FILE]
//
// The global phase over summaries alone (never the sources): calls from
// regions into functions other files define are followed through their
// summaries, and the report is written as a lint run writes it.
//
//===----------------------------------------------------------------------===//

#include "Delivery.h"
#include "Runner.h"
#include "Subcommands.h"

#include "llvm/Support/raw_ostream.h"

#include <set>

namespace capture_lint {

int runLink(Options &O, const clang::tidy::ClangTidyGlobalOptions &LineFilter) {
  if (!O.Run.BuildDir.empty() || O.Run.HasExplicitFlags)
    usageError("link reads summaries only: it takes no -p and no compiler "
               "flags");
  if (!O.ImportRoles.empty())
    usageError("--import-roles is for summarize");
  auto Paths = expandLists(O.Run.Files);
  if (!Paths) {
    llvm::errs() << "capture-lint: error: " << llvm::toString(Paths.takeError())
                 << "\n";
    return exitWith(O, 2);
  }
  if (Paths->empty())
    usageError("link needs SUMMARY files (or @LIST), written by capture-lint "
               "summarize");
  std::string Root = summaryRoot(O);
  auto Summaries = readSummaries(*Paths, Root);
  if (!Summaries) {
    llvm::errs() << "capture-lint: error: "
                 << llvm::toString(Summaries.takeError()) << "\n";
    return exitWith(O, 2);
  }
  std::set<std::string> Sources;
  for (size_t I = 0; I < Summaries->size(); ++I)
    if (!Sources.insert((*Summaries)[I].Source).second) {
      llvm::errs() << "capture-lint: error: '" << (*Paths)[I]
                   << "' summarizes '" << (*Summaries)[I].Source
                   << "', which an earlier summary does too; link each "
                      "file's summary once\n";
      return exitWith(O, 2);
    }
  Report R = linkSummaries(O.Run, std::move(*Summaries), Root);
  return deliverReport(R, O, LineFilter);
}

} // namespace capture_lint
