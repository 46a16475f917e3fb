//===- Subcommands.h - capture-lint summarize and link ----------*- C++ -*-===//
//
// The two steps a build system runs at scale (docs/scale.md): `summarize`,
// one build action per source file writing a hermetic summary
// (SummaryFile.h), and `link`, which reads only summaries and reports as a
// lint run does. The helpers here read the summaries both of them take.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_CLI_SUBCOMMANDS_H
#define CAPTURE_LINT_CLI_SUBCOMMANDS_H

#include "Options.h"
#include "SummaryFile.h"

#include "clang-tidy/ClangTidyOptions.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace capture_lint {

/// `capture-lint summarize FILE -o SUMMARY [-- FLAGS]`.
int runSummarize(Options &O);

/// `capture-lint launch -- COMPILER ARGS`: the compiler's exit status.
int runLaunch(Options &O);

/// `capture-lint link SUMMARY... [@LIST]`.
int runLink(Options &O, const clang::tidy::ClangTidyGlobalOptions &LineFilter);

/// The directory summaries' paths are relative to: --root, else the
/// current directory (absolute).
std::string summaryRoot(const Options &O);

/// \p Args with each `@LIST` replaced by the paths LIST holds, one a line
/// (blank lines skipped), and each directory by the *.capture-lint.sum
/// files under it; an error names a list that cannot be read.
llvm::Expected<std::vector<std::string>>
expandLists(const std::vector<std::string> &Args);

/// The summaries at \p Paths (after expandLists), read under \p Root; the
/// first unusable one is the error.
llvm::Expected<std::vector<SummaryFileContents>>
readSummaries(const std::vector<std::string> &Paths, llvm::StringRef Root);

/// Reads --import-roles' summaries into \p RoleSources, and readies O.Run
/// for one file's summary.
llvm::Error prepareSummary(Options &O, std::vector<UnitResult> &RoleSources);

/// Writes \p S to \p Path and, with --roles-out, the roles it exports (a
/// summary holding only those, for the files that import them): false after
/// saying why one could not be written.
bool writeSummary(const Options &O, const SummaryFileContents &S,
                  const std::string &Path);

} // namespace capture_lint

#endif // CAPTURE_LINT_CLI_SUBCOMMANDS_H
