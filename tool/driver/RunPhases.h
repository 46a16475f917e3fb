//===- RunPhases.h - The phases of a run, shared by its kinds ---*- C++ -*-===//
//
// Private to the driver. A lint run (Runner.cpp) and the summarize and link
// steps (SummaryRuns.cpp) are made of the same phases: load the compile
// database and decide each input's command, analyse the units (in
// parallel, or from the cache), analyse again those that import roles
// from other files, report each unit, and join across units and
// languages. Each kind of run puts them together differently.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_RUNPHASES_H
#define CAPTURE_LINT_TOOL_RUNPHASES_H

#include "Report.h"
#include "Runner.h"
#include "SourceText.h"
#include "SummaryCache.h"
#include "capture_lint/RoleImports.h"

#include "clang/Tooling/CompilationDatabase.h"

#include <map>
#include <memory>

namespace capture_lint {

/// The compile commands capture-lint decided on, keyed by absolute path.
class CommandDatabase : public clang::tooling::CompilationDatabase {
public:
  void add(clang::tooling::CompileCommand C) {
    std::string Key = C.Filename;
    Commands[Key] = std::move(C);
  }
  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef File) const override {
    auto It = Commands.find(File.str());
    if (It == Commands.end())
      return {};
    return {It->second};
  }
  std::vector<std::string> getAllFiles() const override {
    std::vector<std::string> Files;
    for (const auto &C : Commands)
      Files.push_back(C.first);
    return Files;
  }

private:
  std::map<std::string, clang::tooling::CompileCommand> Commands;
};

/// The cache key of a TU: its file, command, directory, the run's settings
/// and the project and clang-tidy configuration files that apply to it.
struct UnitKeys {
  std::string Settings;
  const RunConfig *Config = nullptr;
  std::string Root; // the cache's root (SummaryCache)
  /// \p Imports: the roles the TU takes from other files (RoleImport.h).
  std::string operator()(const std::string &File,
                         const clang::tooling::CompileCommand &C,
                         const RoleImports *Imports = nullptr) const;
};

/// Phase one's results, in the order of the files.
struct UnitRun {
  std::vector<UnitResult> Units;
  std::vector<char> FromCache, Crashed, TooDeep;
};

/// What changes results besides the files and their compile commands.
std::string settingsKey(const RunConfig &Config);

/// The compile database -p names (null without -p; \p R's errors say why
/// one could not be read).
std::unique_ptr<clang::tooling::CompilationDatabase>
loadDatabase(const RunConfig &Config, Report &R);

/// The run's inputs: C++ files with their commands (in \p DB and \p Files)
/// and Python files, each once, in the order given.
void collectInputs(const RunConfig &Config,
                   const clang::tooling::CompilationDatabase *Loaded, Report &R,
                   CommandDatabase &DB, std::vector<std::string> &Files,
                   std::vector<std::string> &PythonInputs);

/// Phase one: \p Files analysed in parallel, or taken from \p Cache.
UnitRun analyzeUnits(
    const std::vector<std::string> &Files, const CommandDatabase &DB,
    const RunConfig &Config, SummaryCache *Cache, const UnitKeys &Keys,
    std::vector<std::string> &CacheErrors,
    const std::vector<std::shared_ptr<const RoleImports>> *Imports = nullptr);

/// The units of \p Run that call functions with roles \p Others or other
/// units define, analysed again with them; how many were.
unsigned analyzeWithImportedRoles(const std::vector<std::string> &Files,
                                  const CommandDatabase &DB,
                                  const RunConfig &Config, SummaryCache *Cache,
                                  const UnitKeys &Keys,
                                  const std::vector<UnitResult> &Others,
                                  UnitRun &Run,
                                  std::vector<std::string> &CacheErrors);

/// Each unit's findings and errors into \p R.
void reportUnits(const std::vector<std::string> &Files, UnitRun &Run,
                 Report &R);

/// Phase two: calls from regions (of the units, and \p FromPython's) into
/// functions other units define, through their summaries and \p Others'.
void joinAcrossUnits(const RunConfig &Config, const UnitRun &Run,
                     const std::vector<UnitResult> &Others, bool HaveDatabase,
                     Report &R, SourceFiles *Places = nullptr,
                     const TuSummary *FromPython = nullptr);

/// The report's findings in the order of their files and lines.
void sortFindings(Report &R);

/// The summaries of the units analysed (less those that crashed) and of
/// \p Others.
std::vector<const TuSummary *>
summariesOf(const UnitRun &Run, const std::vector<UnitResult> &Others);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_RUNPHASES_H
