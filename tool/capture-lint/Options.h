//===- Options.h - The capture-lint command line, parsed --------*- C++ -*-===//
//
// What main() needs from argv: the run's configuration (RunConfig) and what
// to do with its report. Parsing accepts clang-tidy's spellings of the
// options clang-tidy has (single-dash long options, `--name value`);
// a malformed command line is an error naming the option, exit 2.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_CLI_OPTIONS_H
#define CAPTURE_LINT_CLI_OPTIONS_H

#include "Runner.h"

#include <optional>
#include <string>

namespace capture_lint {

struct Options {
  RunConfig Run;
  std::string Format = "text";
  std::string Output;
  bool Quiet = false;
  bool Statistics = false;
  bool Fix = false;
  bool ReportOnly = false;
  std::string Baseline, WriteBaseline, Confirm;
  std::string ExportFixes;
  /// --export-compile-db: write a clang-ready database here and exit.
  std::string ExportCompileDb;
  /// --print-clang-flags: "cuda" or "hip"; print what capture-lint adds to
  /// such a file's command and exit.
  std::string PrintClangFlags;
  bool ListChecks = false;
  bool ExportCatalog = false;
  bool Version = false;
  bool Help = false;
  bool NoCache = false;
  bool CacheDirGiven = false;
  bool Lsp = false;
  std::string WarningsAsErrors;
  std::string HeaderFilter;
  bool HeaderFilterGiven = false;
  std::string SarifRoot;
  /// --config-file=PATH or --config=YAML (read into Run.ConfigText).
  std::string ConfigFile, ConfigInline;
  std::string StdinFilename; // --stdin-filename
  bool MaxCallDepthGiven = false;
  bool DumpConfig = false;
  bool SystemHeaders = false;
  /// --use-color[=BOOL]; unset: colours when stdout is a terminal.
  std::optional<bool> UseColor;
  /// --line-filter's JSON, as given.
  std::string LineFilter;
  /// "summarize" or "link" (the first argument), or "" for a lint run.
  std::string Subcommand;
  /// --root: the directory summaries' paths are relative to.
  std::string Root;
  /// --import-roles: summaries whose roles a summarized file imports.
  std::vector<std::string> ImportRoles;
  /// --roles-out: summarize also writes the roles the file exports here.
  std::string RolesOut;
  /// --exit-code-file: the run's exit status is also written here.
  std::string ExitCodeFile;
};

/// The --help text.
extern const char UsageText[];

/// Prints "capture-lint: error: MSG (see capture-lint --help)" and exits 2.
[[noreturn]] void usageError(const std::string &Msg);

/// Parses the command line; exits 2 through usageError on a bad one.
Options parseArgs(int Argc, char **Argv);

} // namespace capture_lint

#endif // CAPTURE_LINT_CLI_OPTIONS_H
