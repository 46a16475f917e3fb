//===- Runner.h - Running the capture checks over files ---------*- C++ -*-===//
//
// Builds a compile command for every input (from a compile database, from
// flags after `--`, or from defaults), runs clang-tidy's engine with only the
// capture-* checks on each file, in parallel (or takes the file's result from
// the cache when nothing it read has changed), then runs the whole-program
// phase over the TUs' summaries, and collects a Report. Each
// file runs under crash recovery, so one file that crashes the parser is
// reported and the others are still analysed.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_RUNNER_H
#define CAPTURE_LINT_TOOL_RUNNER_H

#include "CompileFlags.h"
#include "EnabledChecks.h"
#include "Report.h"
#include "SummaryFile.h"

#include <functional>
#include <optional>

namespace capture_lint {

struct RunConfig {
  std::vector<std::string> Files;
  std::string BuildDir; // -p
  bool HasExplicitFlags = false;
  std::vector<std::string> ExplicitFlags; // after --
  /// The compiler command a build ran for the file (`capture-lint
  /// launch`), translated as a compile database's entry is.
  std::vector<std::string> BuildCommand;
  /// Added to every compiler command (clang-tidy's --extra-arg-before and
  /// --extra-arg).
  std::vector<std::string> ExtraArgsBefore, ExtraArgs;
  std::string ChecksGlob = "capture-*";
  /// --checks was given: ChecksGlob replaces the configured checks.
  bool ChecksGiven = false;
  /// --config-file's text; empty: the `.clang-tidy` files above each file.
  std::string ConfigText;
  /// Called as each analysed file is done (the progress line).
  std::function<void(unsigned Done, unsigned Total, const std::string &File)>
      Progress;
  std::vector<std::string> Catalogs;
  /// The input `-`: a Python file read from stdin, named StdinPath
  /// (--stdin-filename, absolute) in the report and for its configuration.
  std::string StdinPath, StdinText;
  /// --exclude: globs of inputs left out (Excludes.h).
  std::vector<std::string> Exclude;
  unsigned Jobs = 1;
  unsigned MaxCallDepth = 8;
  /// Resolve calls from regions into other translation units.
  bool WholeProgram = true;
  /// With -p and FILEs: use only cached summaries of the database's other
  /// files (a warning says how many had none) instead of analysing them.
  bool CachedSummariesOnly = false;
  /// Where per-TU results are cached (empty: no cache).
  std::string CacheDir;
  /// The directory the cache keeps paths relative to (--root; empty: the
  /// checkout holding the build directory or the first file, cacheRoot).
  std::string CacheRoot;
  ToolPaths Paths;
};

/// Runs the analysis. Problems with inputs (missing files, a database that
/// does not load) land in Report::Errors.
Report runAnalysis(const RunConfig &Config);

/// The top of the checkout holding \p Dir: the nearest directory at or
/// above it with a `.git` (a directory, or a worktree's file); "" when
/// there is none.
std::string checkoutTop(llvm::StringRef Dir);

/// `capture-lint summarize`: phase one for the one C++/CUDA/HIP file of
/// Config.Files, analysed again with the roles that \p RoleSources give the
/// functions it calls without their bodies. Nothing when the input is
/// unusable (\p R's errors say why); its findings and the analysis's
/// errors are in the result.
std::optional<SummaryFileContents>
summarizeFile(const RunConfig &Config,
              const std::vector<UnitResult> &RoleSources, Report &R);

/// `capture-lint link`: the report of phase two over \p Summaries, read
/// from their files (SummaryFile.h) and never from the sources.
/// Python summaries are analysed together, as one program whose modules
/// are theirs alone, under \p Root (the root they were written under, taken
/// as the project's top for absolute imports).
Report linkSummaries(const RunConfig &Config,
                     std::vector<SummaryFileContents> Summaries,
                     llvm::StringRef Root);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_RUNNER_H
