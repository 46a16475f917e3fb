//===- TidyCompat.h - clang-tidy's option spellings and filters -*- C++ -*-===//
//
// What lets a clang-tidy user drive capture-lint with the options they know:
// clang-tidy's single-dash spellings (`-checks=`, `-fix`, `-quiet`), the
// compiler arguments it adds (`--extra-arg`, `--extra-arg-before`), its
// report filters (`--warnings-as-errors`, `--header-filter`, `--line-filter`)
// and its configuration: `--config-file` or the `.clang-tidy` files above
// each source, read by clang-tidy's own providers in one place
// (tidyOptionsProvider) for the engine, the report filters and
// `--dump-config` alike.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_TIDYCOMPAT_H
#define CAPTURE_LINT_TOOL_TIDYCOMPAT_H

#include "Report.h"

#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace capture_lint {

struct RunConfig;

/// `-checks=x` as `--checks=x` when \p Arg is a single-dash spelling of one
/// of \p LongOptions ("checks", "fix", ...); otherwise \p Arg unchanged.
std::string doubleDashSpelling(llvm::StringRef Arg,
                               llvm::ArrayRef<llvm::StringRef> LongOptions);

/// Adds clang-tidy's extra arguments to a compiler command line: \p Before
/// right after the compiler, \p After at the end (before a `--` that ends
/// the options, if there is one).
void addExtraArguments(std::vector<std::string> &CommandLine,
                       const std::vector<std::string> &Before,
                       const std::vector<std::string> &After);

/// Findings of the checks \p Glob enables become errors (clang-tidy's
/// --warnings-as-errors). Remarks stay remarks.
void applyWarningsAsErrors(Report &R, llvm::StringRef Glob);

/// Why \p Regex cannot be a --header-filter (it does not compile), or "".
std::string headerFilterError(llvm::StringRef Regex);

/// Keeps findings in source files and in headers (files with a header's
/// extension not among \p MainFiles) whose path matches \p Regex
/// (clang-tidy's --header-filter); \p Regex has passed headerFilterError.
void applyHeaderFilter(Report &R, llvm::StringRef Regex,
                       const std::vector<std::string> &MainFiles);

/// The one reader of clang-tidy configuration: capture-lint's defaults
/// (Checks: capture-*), then RunConfig::ConfigText (--config-file) or else
/// the `.clang-tidy` files above each file, then \p Forced. The command
/// line's --checks replaces the configured checks. Of each `Checks:` value
/// only the `capture-*` patterns count (noCaptureCheckError).
std::unique_ptr<clang::tidy::ClangTidyOptionsProvider> tidyOptionsProvider(
    const RunConfig &Config, const clang::tidy::ClangTidyOptions &Forced = {},
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS = nullptr);

/// The clang-tidy configuration files that apply to \p File (none with
/// --config-file, whose text is part of the run's settings).
std::vector<std::string> tidyConfigFiles(const RunConfig &Config,
                                         llvm::StringRef File);

/// Why the configuration of \p File enables no capture check, naming the
/// configuration file (or --checks) that turned the last one off; "" when
/// some check is on. Only `capture-*` patterns of a `Checks:` value select
/// among the capture checks: `-*,bugprone-*` leaves the defaults on.
std::string noCaptureCheckError(const RunConfig &Config, llvm::StringRef File);

/// The capture checks the configuration of \p File enables.
std::vector<std::string> configuredChecks(const RunConfig &Config,
                                          llvm::StringRef File);

/// --config-file's text after checking that it parses, or an error naming
/// the file, the line and the problem.
llvm::Expected<std::string> readConfigFile(const std::string &Path);

/// Checks --config's inline YAML; an error says what is wrong with it.
llvm::Error checkConfigText(llvm::StringRef Text, llvm::StringRef Origin);

/// --dump-config: the configuration that applies to \p File, as YAML that
/// --config-file and `.clang-tidy` accept.
std::string dumpConfig(const RunConfig &Config, llvm::StringRef File);

/// Drops findings of checks that the configuration of the file they are
/// reported for (the region's file when there is one) does not enable; an
/// analysed file whose configuration enables none is an error in \p R.
void applyConfiguredChecks(Report &R, const RunConfig &Config);

/// Keeps findings in headers only where the header filter matches: the
/// command line's --header-filter, else HeaderFilterRegex from the
/// configuration of the header (no filter when neither is set). A regex
/// from a configuration that does not compile is an error in \p R.
void applyConfiguredHeaderFilter(Report &R, const RunConfig &Config,
                                 const std::string *CommandLineFilter);

/// Parses --line-filter (clang-tidy's JSON:
/// `[{"name":"a.cu","lines":[[1,30]]}]`), or an error that says what is
/// wrong with it.
llvm::Expected<clang::tidy::ClangTidyGlobalOptions>
parseLineFilterOption(llvm::StringRef Json);

/// Keeps only findings on the lines \p Filter names, as clang-tidy does: a
/// file matches an entry whose name its path ends with; an entry without
/// lines keeps the whole file; files no entry names are dropped.
void applyLineFilter(Report &R,
                     const clang::tidy::ClangTidyGlobalOptions &Filter);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_TIDYCOMPAT_H
