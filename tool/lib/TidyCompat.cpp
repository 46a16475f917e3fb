//===- TidyCompat.cpp - clang-tidy's option spellings and filters ---------===//

#include "TidyCompat.h"
#include "Runner.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <algorithm>
#include <set>

namespace capture_lint {

std::string doubleDashSpelling(llvm::StringRef Arg,
                               llvm::ArrayRef<llvm::StringRef> LongOptions) {
  if (!Arg.starts_with("-") || Arg.starts_with("--") || Arg.size() < 3)
    return Arg.str();
  llvm::StringRef Name = Arg.drop_front().split('=').first;
  if (llvm::is_contained(LongOptions, Name))
    return "-" + Arg.str();
  return Arg.str();
}

void addExtraArguments(std::vector<std::string> &CommandLine,
                       const std::vector<std::string> &Before,
                       const std::vector<std::string> &After) {
  if (CommandLine.empty())
    return;
  auto End = std::find(CommandLine.begin(), CommandLine.end(), "--");
  CommandLine.insert(End, After.begin(), After.end());
  CommandLine.insert(CommandLine.begin() + 1, Before.begin(), Before.end());
}

void applyWarningsAsErrors(Report &R, llvm::StringRef Glob) {
  if (Glob.empty())
    return;
  std::vector<std::string> Checks = enabledChecks(Glob);
  std::set<std::string> AsErrors(Checks.begin(), Checks.end());
  for (ReportFinding &F : R.Findings)
    if (F.Severity == "warning" && AsErrors.count(F.Check))
      F.Severity = "error";
}

static std::string absolute(llvm::StringRef Path) {
  llvm::SmallString<256> P(Path);
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

std::string headerFilterError(llvm::StringRef Regex) {
  std::string Why;
  if (llvm::Regex(Regex).isValid(Why))
    return "";
  return "--header-filter='" + Regex.str() + "' is not a valid regex: " + Why;
}

void applyHeaderFilter(Report &R, llvm::StringRef Regex,
                       const std::vector<std::string> &MainFiles) {
  llvm::Regex Filter(Regex);
  std::set<std::string> Main;
  for (const std::string &F : MainFiles)
    Main.insert(absolute(F));
  // A header: a file with a header's extension that was not named as input
  // (with -p and no files, every translation unit's own file is a source).
  auto IsHeader = [&](llvm::StringRef File) {
    llvm::StringRef Ext = llvm::sys::path::extension(File);
    return !Main.count(absolute(File)) &&
           llvm::is_contained({".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl",
                               ".inc", ".tcc", ""},
                              Ext);
  };
  llvm::erase_if(R.Findings, [&](const ReportFinding &F) {
    return IsHeader(F.Loc.File) && !Filter.match(F.Loc.File);
  });
}

} // namespace capture_lint
