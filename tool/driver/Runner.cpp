//===- Runner.cpp - Running the capture checks over files -----------------===//

#include "Runner.h"
#include "CompileDatabaseCheck.h"
#include "Excludes.h"
#include "LargeStack.h"
#include "NativeJoin.h"
#include "Paths.h"
#include "PythonRunner.h"
#include "RunPhases.h"
#include "SourceText.h"
#include "TidyCompat.h"
#include "UnitAnalysis.h"
#include "Version.h"

#include "RoleImport.h"
#include "SummaryCache.h"
#include "WholeProgram.h"

#include "capture_lint/CaptureSettings.h"
#include "capture_lint/NameList.h"
#include "capture_lint/ProjectConfig.h"

#include "clang-tidy/ClangTidyOptions.h"
#include "clang-tidy/GlobList.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

using namespace clang;
using namespace clang::tidy;

namespace capture_lint {

namespace {

ClangTidyOptions overrideOptions(const RunConfig &Config) {
  ClangTidyOptions O;
  // The configured checks (tidyOptionsProvider), but only capture checks.
  O.Checks = "-clang-analyzer-*,-clang-diagnostic-*";
  O.HeaderFilterRegex = ".*"; // regions in project headers count too
  O.SystemHeaders = false;
  if (Config.MaxCallDepth != 8)
    O.CheckOptions["MaxCallDepth"] =
        ClangTidyOptions::ClangTidyValue(std::to_string(Config.MaxCallDepth));
  if (!Config.Catalogs.empty()) {
    std::string List;
    for (const std::string &C : Config.Catalogs)
      List += (List.empty() ? "" : ";") + absolutePath(C);
    O.CheckOptions["CaptureCatalog"] = ClangTidyOptions::ClangTidyValue(List);
  }
  return O;
}

/// The settings of one file: the capture options of its configuration
/// (the command line's --catalog and --max-call-depth win), its catalog
/// and its enabled checks.
UnitSettings unitSettings(const std::string &File, const RunConfig &Config,
                          std::shared_ptr<const RoleImports> Imports) {
  UnitSettings U;
  ClangTidyOptions Options =
      tidyOptionsProvider(Config, overrideOptions(Config))->getOptions(File);
  U.Settings =
      readCaptureSettings([&](StringRef Key) -> std::optional<std::string> {
        auto It = Options.CheckOptions.find(Key);
        if (It == Options.CheckOptions.end())
          return std::nullopt;
        return It->getValue().Value;
      });
  U.Cat = loadCatalogFor(File, U.Settings);
  for (const std::string &Check : enabledChecks(Options.Checks.value_or("")))
    U.Enabled.insert(Check);
  U.Summarize = Config.WholeProgram;
  U.Imports = std::move(Imports);
  return U;
}

struct FileResult {
  UnitAnalysis Unit;
  bool Crashed = false;
  bool TooDeep = false; // ran out of stack
};

/// Analyses one file, on a stack large enough for deeply nested code, and
/// survives a crash of the analysis.
void analyzeFile(const std::string &File, const CommandDatabase &DB,
                 const RunConfig &Config,
                 std::shared_ptr<const RoleImports> Imports,
                 SourceFiles &Sources, FileResult &Out) {
  UnitSettings Settings = unitSettings(File, Config, std::move(Imports));
  StackRun Run = runOnLargeStack(
      [&] { analyzeUnit(File, DB, Settings, Sources, Out.Unit); });
  Out.Crashed = Run != StackRun::Completed;
  Out.TooDeep = Run == StackRun::StackExhausted;
}

} // namespace

/// The running binary's contents, hashed once: a rebuilt binary of the
/// same version analyses differently, a copy of the same one alike
/// (wherever it is installed, so caches move between machines).
static std::string binaryHash() {
  static const std::string Hash = [] {
    std::string Exe = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
    auto Buffer = llvm::MemoryBuffer::getFile(Exe);
    return Buffer ? contentHash((*Buffer)->getBuffer()) : Exe;
  }();
  return Hash;
}

/// What changes results besides the files and their compile commands: the
/// checks, the catalogs, the call depth and the tool (its version and the
/// binary itself).
std::string settingsKey(const RunConfig &Config) {
  std::string S =
      std::string(CAPTURE_LINT_VERSION) + '\0' + CAPTURE_LINT_LLVM_VERSION +
      '\0' + (Config.ChecksGiven ? Config.ChecksGlob : "") + '\0' +
      std::to_string(Config.MaxCallDepth) + '\0' +
      (Config.WholeProgram ? "wp" : "tu") + '\0' + Config.ConfigText;
  for (const std::string &C : Config.Catalogs)
    S += '\0' + absolutePath(C);
  return S + '\0' + binaryHash();
}

/// One TU's findings and errors, with its summary and the files its result
/// depends on.
static UnitResult unitResult(const std::string &File, FileResult &FR,
                             const RunConfig &Config) {
  UnitResult U;
  U.Findings = std::move(FR.Unit.Findings);
  U.Errors = std::move(FR.Unit.Errors);
  U.Summary = std::move(FR.Unit.Summary);
  U.Deps = std::move(FR.Unit.Deps);
  // Hashed when the entry is stored.
  for (const std::string &C : Config.Catalogs)
    U.Deps.emplace(absolutePath(C), FileSnapshot());
  std::string ProjectConfig = findProjectConfig(File);
  if (!ProjectConfig.empty())
    U.Deps.emplace(ProjectConfig, FileSnapshot());
  for (const std::string &TidyConfig : tidyConfigFiles(Config, File))
    U.Deps.emplace(TidyConfig, FileSnapshot());
  if (FR.Unit.ParseError)
    U.Errors.push_back(
        {{File},
         Config.WholeProgram
             ? "this file does not parse; its findings may be incomplete, "
               "and of the roles it gives other files (openers, closers, "
               "wrappers, capture predicates) only those of the code that "
               "parsed were exported (check the compile flags)"
             : "this file does not parse; its findings may be incomplete "
               "(check the compile flags)"});
  return U;
}

std::string UnitKeys::operator()(const std::string &File,
                                 const tooling::CompileCommand &C,
                                 const RoleImports *Imports) const {
  std::string Configs = findProjectConfig(File);
  for (const std::string &TidyConfig : tidyConfigFiles(*Config, File))
    Configs += '\0' + TidyConfig;
  return SummaryCache::key(File, C.CommandLine, C.Directory,
                           Settings + '\0' + Configs + importsKey(Imports),
                           Root);
}

/// Analyses \p Files (each has a command in \p DB) in parallel, or takes
/// their results from \p Cache, storing what was analysed.
/// \p Imports, when given, holds for each file the roles it imports from
/// other files (null for none); they are part of its cache key.
/// Runs \p Work on \p Jobs threads, each with its own signal stack (on
/// this thread when one).
static void onThreads(unsigned Jobs, const std::function<void()> &Work) {
  if (Jobs == 1) {
    Work();
    return;
  }
  std::vector<std::thread> Threads;
  for (unsigned J = 0; J < Jobs; ++J)
    Threads.emplace_back([&] {
      SignalStackKeeper Keeper;
      Work();
    });
  for (std::thread &T : Threads)
    T.join();
}

UnitRun
analyzeUnits(const std::vector<std::string> &Files, const CommandDatabase &DB,
             const RunConfig &Config, SummaryCache *Cache, const UnitKeys &Keys,
             std::vector<std::string> &CacheErrors,
             const std::vector<std::shared_ptr<const RoleImports>> *Imports) {
  UnitRun Run;
  Run.Units.resize(Files.size());
  Run.FromCache.assign(Files.size(), 0);
  Run.Crashed.assign(Files.size(), 0);
  Run.TooDeep.assign(Files.size(), 0);
  std::mutex ErrorsMutex;
  std::atomic<size_t> Next{0};
  unsigned Done = 0; // under ErrorsMutex
  auto Progress = [&](size_t I) {
    if (!Config.Progress)
      return;
    std::lock_guard<std::mutex> Lock(ErrorsMutex);
    Config.Progress(++Done, Files.size(), Files[I]);
  };
  auto Worker = [&] {
    SourceFiles Sources;
    for (size_t I = Next++; I < Files.size(); I = Next++) {
      std::shared_ptr<const RoleImports> Imported =
          Imports ? (*Imports)[I] : nullptr;
      std::string Key =
          Cache ? Keys(Files[I], DB.getCompileCommands(Files[I]).front(),
                       Imported.get())
                : "";
      if (Cache)
        if (auto U = Cache->load(Key)) {
          Run.Units[I] = std::move(*U);
          Run.FromCache[I] = 1;
          Progress(I);
          continue;
        }
      FileResult FR;
      analyzeFile(Files[I], DB, Config, Imported, Sources, FR);
      Progress(I);
      if (FR.Crashed) {
        Run.Crashed[I] = 1;
        Run.TooDeep[I] = FR.TooDeep;
        continue;
      }
      Run.Units[I] = unitResult(Files[I], FR, Config);
      if (Cache)
        if (llvm::Error E = Cache->store(Key, Run.Units[I])) {
          std::lock_guard<std::mutex> Lock(ErrorsMutex);
          CacheErrors.push_back(llvm::toString(std::move(E)));
        }
    }
  };
  onThreads(std::max(1u, std::min<unsigned>(Config.Jobs, Files.size())),
            Worker);
  return Run;
}

/// The summaries of the database's files other than \p Analysed, for calls
/// into them: from the cache, and analysed now where the cache has none (or
/// is stale), unless Config.CachedSummariesOnly. Returns how many were
/// analysed now; \p Missing counts the files left without a summary.
static unsigned otherSummaries(const tooling::CompilationDatabase &Loaded,
                               const std::vector<std::string> &Analysed,
                               const RunConfig &Config, SummaryCache *Cache,
                               const UnitKeys &Keys,
                               std::vector<UnitResult> &Out, unsigned &Missing,
                               std::vector<std::string> &CacheErrors) {
  std::set<std::string> Skip(Analysed.begin(), Analysed.end());
  CommandDatabase Others;
  std::vector<std::string> ToAnalyse;
  for (const std::string &Other : Loaded.getAllFiles()) {
    std::string File = absolutePath(Other);
    auto FromDb = Loaded.getCompileCommands(File);
    if (Skip.count(File) || FromDb.empty() || isPythonInput(File) ||
        !problemWithDirectory(FromDb.front().Directory).empty() ||
        !llvm::sys::fs::is_regular_file(File))
      continue;
    tooling::CompileCommand Cmd;
    Cmd.Filename = File;
    Cmd.Directory = FromDb.front().Directory;
    Cmd.CommandLine = translateCommand(FromDb.front().CommandLine, File,
                                       Cmd.Directory, Config.Paths)
                          .Args;
    addExtraArguments(Cmd.CommandLine, Config.ExtraArgsBefore,
                      Config.ExtraArgs);
    std::optional<UnitResult> U;
    if (Cache)
      U = Cache->load(Keys(File, Cmd));
    if (U) {
      Out.push_back(std::move(*U));
      continue;
    }
    Others.add(Cmd);
    ToAnalyse.push_back(File);
  }
  if (Config.CachedSummariesOnly) {
    Missing = ToAnalyse.size();
    return 0;
  }
  UnitRun Run =
      analyzeUnits(ToAnalyse, Others, Config, Cache, Keys, CacheErrors);
  for (size_t I = 0; I < ToAnalyse.size(); ++I)
    if (Run.Crashed[I])
      ++Missing;
    else
      Out.push_back(std::move(Run.Units[I]));
  return ToAnalyse.size();
}

/// What the run lost for want of \p Missing other files' summaries: the
/// roles of the bodiless functions the analysed files call (a helper that
/// opens or ends a region, a capture predicate), named, and the calls from
/// regions into those files.
static std::string
missingSummariesWarning(unsigned Missing, const RunConfig &Config,
                        const UnitRun &Run,
                        const std::vector<UnitResult> &Others) {
  std::vector<const TuSummary *> Analysed, Known;
  for (size_t I = 0; I < Run.Units.size(); ++I)
    if (!Run.Crashed[I])
      Analysed.push_back(&Run.Units[I].Summary);
  Known = Analysed;
  for (const UnitResult &U : Others)
    Known.push_back(&U.Summary);
  std::vector<std::string> Names = bodilessNowhereDefined(Analysed, Known);
  std::string W = std::to_string(Missing) + " other file" +
                  (Missing == 1 ? " of the compile database has"
                                : "s of the compile database have") +
                  " no summary (not cached" +
                  (Config.CachedSummariesOnly ? ", and --cached-summaries-only"
                                              : ", or analysing them failed") +
                  "): ";
  if (!Names.empty()) {
    std::vector<std::string> Quoted;
    for (const std::string &N : Names)
      Quoted.push_back("'" + N + "'");
    W += firstFew(Quoted) + std::string(Names.size() == 1 ? " is" : " are") +
         " called without a body, so whether they begin or end a capture "
         "(or test for one) is not known and regions they open were not "
         "found; ";
  }
  W += "calls from regions into functions defined there were not followed";
  if (Config.CachedSummariesOnly)
    W += "; run once without --cached-summaries-only to fill the cache";
  return W;
}

/// One line naming the functions that regions call but no analysed file
/// defines (the first three), so a silent pass is not taken for a clean one.
static std::string unfollowedWarning(const std::vector<UnfollowedCall> &Calls,
                                     bool HaveDatabase) {
  std::string W =
      std::to_string(Calls.size()) + " function" +
      (Calls.size() == 1 ? "" : "s") + " called in capture regions ha" +
      (Calls.size() == 1 ? "s" : "ve") +
      " no body in the analysed files, so what " +
      (Calls.size() == 1 ? "it does" : "they do") + " was not checked: ";
  std::vector<std::string> Named;
  for (const UnfollowedCall &C : Calls)
    Named.push_back("'" + C.Callee + "' (" +
                    llvm::sys::path::filename(C.File).str() + ":" +
                    std::to_string(C.Line) + ")");
  W += firstFew(Named);
  W += HaveDatabase ? "; analyse the files that define them, or describe "
                      "them in .capture-lint.json (docs/regions.md)"
                    : "; give -p BUILD_DIR (or the files that define them), "
                      "or describe them in .capture-lint.json "
                      "(docs/regions.md)";
  return W;
}

/// The compile database of -p, or null (without -p, or on an error, which
/// \p R then holds).
std::unique_ptr<tooling::CompilationDatabase>
loadDatabase(const RunConfig &Config, Report &R) {
  if (Config.BuildDir.empty())
    return nullptr;
  llvm::SmallString<256> Path(Config.BuildDir);
  llvm::sys::path::append(Path, "compile_commands.json");
  if (!llvm::sys::fs::exists(Path)) {
    R.Errors.push_back({{std::string(Path)},
                        "no compile database: '" + std::string(Path) +
                            "' does not exist (generate it with "
                            "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON)"});
    return nullptr;
  }
  std::string Err = checkCompileDatabase(std::string(Path));
  if (!Err.empty()) {
    R.Errors.push_back(
        {{std::string(Path)}, "cannot use the compile database: " + Err});
    return nullptr;
  }
  auto Loaded = tooling::JSONCompilationDatabase::loadFromFile(
      Path, Err, tooling::JSONCommandLineSyntax::AutoDetect);
  if (!Loaded) {
    R.Errors.push_back(
        {{std::string(Path)}, "cannot load the compile database: " + Err});
    return nullptr;
  }
  // A file the database lacks (a header, above all) gets the command of
  // its nearest entry, as clangd gives it (CompileCommand::Heuristic says
  // which).
  return tooling::inferMissingCompileCommands(std::move(Loaded));
}

/// The command one input file is analysed with: from the database, the
/// flags after '--', or the defaults for its language. Null after an error
/// (in \p R).
static std::optional<tooling::CompileCommand>
commandFor(const std::string &File, const RunConfig &Config,
           const tooling::CompilationDatabase *Loaded, Report &R) {
  tooling::CompileCommand Cmd;
  Cmd.Filename = File;
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  Cmd.Directory = std::string(Cwd);
  std::vector<tooling::CompileCommand> FromDb;
  if (Loaded)
    FromDb = Loaded->getCompileCommands(File);
  else if (!Config.BuildCommand.empty())
    FromDb.emplace_back(Cmd.Directory, File, Config.BuildCommand, "");
  if (!FromDb.empty() && !FromDb.front().Heuristic.empty() &&
      !hasHeaderExtension(File))
    R.Warnings.push_back(File +
                         ": not in the compile database; analysed "
                         "with the flags of a file beside it (" +
                         FromDb.front().Heuristic + ")");
  if (!FromDb.empty()) {
    std::string BadDirectory = problemWithDirectory(FromDb.front().Directory);
    if (!BadDirectory.empty()) {
      R.Errors.push_back({{File}, BadDirectory});
      return std::nullopt;
    }
    TranslatedCommand T =
        translateCommand(FromDb.front().CommandLine, File,
                         FromDb.front().Directory, Config.Paths);
    for (const std::string &W : T.Warnings)
      R.Warnings.push_back(File + ": " + W);
    Cmd.CommandLine = std::move(T.Args);
    Cmd.Directory = FromDb.front().Directory;
  } else if (Config.HasExplicitFlags) {
    Cmd.CommandLine = explicitCommand(Config.ExplicitFlags, File, Config.Paths);
  } else {
    auto Default = defaultCommand(File, Config.Paths);
    if (!Default) {
      R.Errors.push_back({{File},
                          "cannot tell the language of this file (expected "
                          ".cu, .cuh, .hip, .cpp, .cc, .cxx, .h, .hpp); pass "
                          "compile flags after '--' or use -p with a compile "
                          "database"});
      return std::nullopt;
    }
    if (Loaded)
      R.Warnings.push_back(File + ": not in the compile database; analysed "
                                  "with default flags");
    Cmd.CommandLine = std::move(*Default);
  }
  addExtraArguments(Cmd.CommandLine, Config.ExtraArgsBefore, Config.ExtraArgs);
  return Cmd;
}

/// The run's inputs: C++ files with their commands (in \p DB and \p Files)
/// and Python files, each once, in the order given.
void collectInputs(const RunConfig &Config,
                   const tooling::CompilationDatabase *Loaded, Report &R,
                   CommandDatabase &DB, std::vector<std::string> &Files,
                   std::vector<std::string> &PythonInputs) {
  std::vector<std::string> Inputs = Config.Files;
  if (Inputs.empty() && Loaded)
    Inputs = Loaded->getAllFiles();
  auto Excluded = Excludes::create(Config.Exclude);
  if (!Excluded) { // checked when the options were read
    R.Errors.push_back({{""}, llvm::toString(Excluded.takeError())});
    return;
  }
  std::set<std::string> Seen;
  for (const std::string &Input : Inputs) {
    std::string File = absolutePath(Input);
    if (!Seen.insert(File).second || Excluded->excludes(Input))
      continue;
    if (isPythonInput(File) &&
        (File == Config.StdinPath || llvm::sys::fs::exists(File))) {
      PythonInputs.push_back(File); // the Python front end
      continue;
    }
    llvm::sys::fs::file_status St;
    if (std::error_code EC = llvm::sys::fs::status(File, St)) {
      R.Errors.push_back(
          {{File},
           EC == std::errc::too_many_symbolic_link_levels
               ? "cannot open: a symlink loop (" + EC.message() + ")"
               : "cannot open: " + EC.message()});
      continue;
    }
    if (St.type() != llvm::sys::fs::file_type::regular_file) {
      R.Errors.push_back({{File}, "not a regular file"});
      continue;
    }
    if (auto Cmd = commandFor(File, Config, Loaded, R)) {
      DB.add(std::move(*Cmd));
      Files.push_back(File);
    }
  }
}

/// Analyses again, with the roles they import, the units that call
/// functions other units define with a role (RoleImport.h); \p Others are
/// the summaries of files analysed for their summaries only. A unit whose
/// second analysis crashes keeps its first result. Returns how many units
/// were analysed again.
unsigned analyzeWithImportedRoles(const std::vector<std::string> &Files,
                                  const CommandDatabase &DB,
                                  const RunConfig &Config, SummaryCache *Cache,
                                  const UnitKeys &Keys,
                                  const std::vector<UnitResult> &Others,
                                  UnitRun &Run,
                                  std::vector<std::string> &CacheErrors) {
  std::vector<const TuSummary *> Analysed, Known;
  std::vector<size_t> Index;
  for (size_t I = 0; I < Files.size(); ++I)
    if (!Run.Crashed[I]) {
      Analysed.push_back(&Run.Units[I].Summary);
      Index.push_back(I);
    }
  Known = Analysed;
  for (const UnitResult &U : Others)
    Known.push_back(&U.Summary);
  auto Imports = roleImportsFor(Analysed, Known);
  std::vector<std::string> Again;
  std::vector<std::shared_ptr<const RoleImports>> AgainImports;
  std::vector<size_t> AgainIndex;
  for (size_t K = 0; K < Analysed.size(); ++K)
    if (Imports[K]) {
      Again.push_back(Files[Index[K]]);
      AgainImports.push_back(Imports[K]);
      AgainIndex.push_back(Index[K]);
    }
  if (Again.empty())
    return 0;
  UnitRun Second =
      analyzeUnits(Again, DB, Config, Cache, Keys, CacheErrors, &AgainImports);
  for (size_t J = 0; J < Again.size(); ++J) {
    if (Second.Crashed[J])
      continue;
    size_t I = AgainIndex[J];
    Run.Units[I] = std::move(Second.Units[J]);
    Run.FromCache[I] = Run.FromCache[I] && Second.FromCache[J];
  }
  return Again.size();
}

/// The files \p U read, into the run's.
static void noteFilesRead(const UnitResult &U, Report &R) {
  for (const auto &[File, Read] : U.Deps)
    recordSnapshot(R.FilesRead, File, Read);
}

/// Each unit's findings and errors into \p R, the same header finding from
/// several units once.
void reportUnits(const std::vector<std::string> &Files, UnitRun &Run,
                 Report &R) {
  for (size_t I = 0; I < Files.size(); ++I) {
    ++R.FilesAnalyzed;
    R.AnalyzedFiles.push_back(Files[I]);
    noteFilesRead(Run.Units[I], R);
    R.FilesFromCache += Run.FromCache[I];
    if (Run.TooDeep[I]) {
      R.Errors.push_back({{Files[I]},
                          "too deeply nested to analyse: parsing this file "
                          "ran out of stack (nested macro arguments, "
                          "expressions or an unfinished edit?); other files "
                          "were analysed"});
      continue;
    }
    if (Run.Crashed[I]) {
      R.Errors.push_back({{Files[I]},
                          "capture-lint crashed while analysing this file "
                          "(an internal error: please report it with the "
                          "file); other files were analysed"});
      continue;
    }
    for (ReportError &E : Run.Units[I].Errors)
      R.Errors.push_back(std::move(E));
    for (ReportFinding &F : Run.Units[I].Findings)
      R.addFinding(std::move(F));
  }
}

/// Phase two: calls from regions into functions other units define,
/// resolved through the summaries of the analysed units and \p Others.
void joinAcrossUnits(const RunConfig &Config, const UnitRun &Run,
                     const std::vector<UnitResult> &Others, bool HaveDatabase,
                     Report &R, SourceFiles *Places,
                     const TuSummary *FromPython) {
  WholeProgramInput In;
  In.Sources = Places;
  In.MaxCallDepth = Config.MaxCallDepth;
  for (size_t I = 0; I < Run.Units.size(); ++I)
    if (!Run.Crashed[I])
      In.Reported.push_back(&Run.Units[I].Summary);
  if (FromPython)
    In.Reported.push_back(FromPython);
  for (const UnitResult &U : Others)
    In.IndexOnly.push_back(&U.Summary);
  std::map<std::string, std::shared_ptr<const Catalog>> Catalogs;
  In.CatalogFor = [&](const std::string &File) {
    std::string Dir = llvm::sys::path::parent_path(File).str();
    auto It = Catalogs.find(Dir);
    if (It == Catalogs.end()) {
      auto C = effectiveCatalog(File, Config.Catalogs);
      std::shared_ptr<const Catalog> Shared;
      if (C)
        Shared = *C;
      else
        llvm::consumeError(C.takeError());
      It = Catalogs.emplace(Dir, Shared).first;
    }
    return It->second;
  };
  std::vector<std::string> Checks = enabledChecks(Config.ChecksGlob);
  In.Enabled = [&](const std::string &Check) {
    return std::find(Checks.begin(), Checks.end(), Check) != Checks.end();
  };
  CrossUnitResult Resolved = resolveAcrossUnits(In);
  for (ReportFinding &F : Resolved.Findings)
    R.addFinding(std::move(F));
  if (!Resolved.Unfollowed.empty())
    R.Warnings.push_back(unfollowedWarning(Resolved.Unfollowed, HaveDatabase));
}

/// The report's findings in the order of their files and lines.
void sortFindings(Report &R) {
  std::stable_sort(R.Findings.begin(), R.Findings.end(),
                   [](const ReportFinding &A, const ReportFinding &B) {
                     return std::tie(A.Loc.File, A.Loc.Line, A.Loc.Column,
                                     A.Check) < std::tie(B.Loc.File, B.Loc.Line,
                                                         B.Loc.Column, B.Check);
                   });
}

/// The summaries of the units analysed (less those that crashed) and of
/// \p Others.
std::vector<const TuSummary *>
summariesOf(const UnitRun &Run, const std::vector<UnitResult> &Others) {
  std::vector<const TuSummary *> Out;
  for (size_t I = 0; I < Run.Units.size(); ++I)
    if (!Run.Crashed[I])
      Out.push_back(&Run.Units[I].Summary);
  for (const UnitResult &U : Others)
    Out.push_back(&U.Summary);
  return Out;
}

std::string checkoutTop(llvm::StringRef Dir) {
  llvm::SmallString<256> At(absolutePath(Dir.str()));
  llvm::sys::path::remove_dots(At, /*remove_dot_dot=*/true);
  for (llvm::StringRef D = At; !D.empty(); D = llvm::sys::path::parent_path(D))
    if (llvm::sys::fs::exists(D + "/.git"))
      return D.str();
  return "";
}

/// The directory the run's cache keeps paths relative to: --root, else the
/// checkout holding the build directory (or the first file).
static std::string cacheRoot(const RunConfig &Config,
                             const std::vector<std::string> &Files) {
  if (!Config.CacheRoot.empty())
    return absolutePath(Config.CacheRoot);
  if (!Config.BuildDir.empty())
    return checkoutTop(Config.BuildDir);
  return Files.empty()
             ? ""
             : checkoutTop(llvm::sys::path::parent_path(Files.front()));
}

/// What the whole-program phase needs besides the analysed units: the
/// summaries of the database's other files where the analysed ones (or the
/// Python inputs, by the names C++ binds) call into them, then the units
/// analysed again with the roles those define. Returns the other files'
/// results.
static std::vector<UnitResult>
besidesTheUnits(const RunConfig &Config,
                const clang::tooling::CompilationDatabase *Loaded,
                const std::vector<std::string> &Files, bool WithPython,
                const CommandDatabase &DB, SummaryCache *Cache,
                const UnitKeys &Keys, UnitRun &Run, Report &R) {
  std::vector<UnitResult> Others;
  bool CallsOut =
      WithPython || llvm::any_of(Run.Units, [](const UnitResult &U) {
        return !U.Summary.Uses.empty() || !U.Summary.Bodiless.empty();
      });
  if (Loaded && !Config.Files.empty() && CallsOut) {
    unsigned Missing = 0;
    R.OtherFilesSummarized = otherSummaries(*Loaded, Files, Config, Cache, Keys,
                                            Others, Missing, R.CacheErrors);
    if (Missing)
      R.Warnings.push_back(
          missingSummariesWarning(Missing, Config, Run, Others));
  }
  for (const UnitResult &U : Others)
    noteFilesRead(U, R);
  R.FilesWithImportedRoles = analyzeWithImportedRoles(
      Files, DB, Config, Cache, Keys, Others, Run, R.CacheErrors);
  return Others;
}

Report runAnalysis(const RunConfig &Config) {
  Report R;
  auto Loaded = loadDatabase(Config, R);
  if (!Config.BuildDir.empty() && !Loaded)
    return R;
  CommandDatabase DB;
  std::vector<std::string> Files, PythonInputs;
  collectInputs(Config, Loaded.get(), R, DB, Files, PythonInputs);

  // Phase one, per TU and in parallel (or from the cache); results keep the
  // input order.
  std::unique_ptr<SummaryCache> Cache;
  std::string CacheRoot = cacheRoot(Config, Files);
  if (!Config.CacheDir.empty())
    Cache = std::make_unique<SummaryCache>(absolutePath(Config.CacheDir),
                                           CacheRoot);
  UnitKeys Keys{settingsKey(Config), &Config, CacheRoot};
  UnitRun Run =
      analyzeUnits(Files, DB, Config, Cache.get(), Keys, R.CacheErrors);
  if (!Config.WholeProgram) {
    reportUnits(Files, Run, R);
    runPython(PythonInputs, Config, R);
    sortFindings(R);
    return R;
  }
  std::vector<UnitResult> Others =
      besidesTheUnits(Config, Loaded.get(), Files, !PythonInputs.empty(), DB,
                      Cache.get(), Keys, Run, R);
  reportUnits(Files, Run, R);
  // Python regions into the C++ functions the analysed files bind.
  std::vector<const TuSummary *> Cpp = summariesOf(Run, Others);
  PythonJoin Py;
  Py.NativeKeys = boundNames(Cpp);
  runPython(PythonInputs, Config, R, &Py);
  SourceFiles Places;
  TuSummary FromPython = nativeUses(Py.NativeCalls, Cpp, Places);
  joinAcrossUnits(Config, Run, Others, Loaded != nullptr, R, &Places,
                  &FromPython);
  sortFindings(R);
  return R;
}

} // namespace capture_lint
