//===- TidyCompat.h - clang-tidy's option spellings and filters -*- C++ -*-===//
//
// What lets a clang-tidy user drive capture-lint with the options they know:
// clang-tidy's single-dash spellings (`-checks=`, `-fix`, `-quiet`), the
// compiler arguments it adds (`--extra-arg`, `--extra-arg-before`), and its
// report filters (`--warnings-as-errors`, `--header-filter`).
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_TIDYCOMPAT_H
#define CAPTURE_LINT_TOOL_TIDYCOMPAT_H

#include "Report.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace capture_lint {

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

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_TIDYCOMPAT_H
