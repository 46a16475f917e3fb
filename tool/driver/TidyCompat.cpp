//===- TidyCompat.cpp - clang-tidy's option spellings and filters ---------===//

#include "TidyCompat.h"
#include "CompileFlags.h"
#include "Paths.h"
#include "Runner.h"
#include "capture_lint/BoundedRead.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"

#include <algorithm>
#include <map>
#include <set>

namespace capture_lint {

using clang::tidy::ClangTidyGlobalOptions;
using clang::tidy::ClangTidyOptions;
using clang::tidy::ClangTidyOptionsProvider;

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
    if (F.Level == Severity::Warning && AsErrors.count(F.Check))
      F.Level = Severity::Error;
}

std::string headerFilterError(llvm::StringRef Regex) {
  std::string Why;
  if (llvm::Regex(Regex).isValid(Why))
    return "";
  return "--header-filter='" + Regex.str() + "' is not a valid regex: " + Why;
}

/// Keeps findings in source files, and in headers whose \p Keep says so.
static void
filterHeaderFindings(Report &R, const std::vector<std::string> &MainFiles,
                     llvm::function_ref<bool(llvm::StringRef)> Keep) {
  std::set<std::string> Main;
  for (const std::string &F : MainFiles)
    Main.insert(absolutePath(F));
  // A header: a file with a header's extension that was not named as input
  // (with -p and no files, every translation unit's own file is a source).
  auto IsHeader = [&](llvm::StringRef File) {
    return !Main.count(absolutePath(File)) && hasHeaderExtension(File);
  };
  llvm::erase_if(R.Findings, [&](const ReportFinding &F) {
    return IsHeader(F.Loc.File) && !Keep(F.Loc.File);
  });
}

void applyHeaderFilter(Report &R, llvm::StringRef Regex,
                       const std::vector<std::string> &MainFiles) {
  llvm::Regex Filter(Regex);
  filterHeaderFindings(
      R, MainFiles, [&](llvm::StringRef File) { return Filter.match(File); });
}

/// capture-lint's defaults under any configuration: the capture checks, and
/// no header filter (every user header's findings are kept).
static ClangTidyOptions captureDefaults() {
  ClangTidyOptions O = ClangTidyOptions::getDefaults();
  O.Checks = "capture-*";
  O.HeaderFilterRegex = std::nullopt;
  O.SystemHeaders = false;
  return O;
}

/// The patterns of a `Checks:` value that name capture checks, in order.
static std::vector<std::string> capturePatterns(llvm::StringRef Checks) {
  std::vector<std::string> Patterns;
  llvm::SmallVector<llvm::StringRef, 16> Parts;
  Checks.split(Parts, ',');
  for (llvm::StringRef P : Parts)
    for (llvm::StringRef Line : llvm::split(P, '\n'))
      if (llvm::StringRef T = Line.trim();
          T.drop_while([](char C) { return C == '-'; })
              .trim()
              .starts_with("capture"))
        Patterns.push_back(T.str());
  return Patterns;
}

/// What one source's `Checks:` says about the capture checks: nothing
/// unless it has `capture-*` patterns (`-*,bugprone-*` is about clang-tidy's
/// own checks, and leaves capture-lint's defaults on); a positive pattern
/// selects (`-*,capture-sync-call` enables that check only); negative ones
/// alone take checks away.
static std::optional<std::string> captureChecksOf(llvm::StringRef Checks) {
  std::vector<std::string> Patterns = capturePatterns(Checks);
  if (Patterns.empty())
    return std::nullopt;
  bool Selects = llvm::any_of(
      Patterns, [](const std::string &P) { return P.front() != '-'; });
  // A selection starts from none (`capture-*` first selects them all).
  std::string Glob =
      Selects && Patterns.front() != "capture-*" ? "-capture-*" : "";
  for (const std::string &P : Patterns)
    Glob += (Glob.empty() ? "" : ",") + P;
  return Glob;
}

namespace {
/// clang-tidy's providers, with each source's `Checks:` read for the
/// capture checks only (captureChecksOf).
class CaptureChecksProvider : public ClangTidyOptionsProvider {
public:
  explicit CaptureChecksProvider(
      std::unique_ptr<ClangTidyOptionsProvider> Inner)
      : Inner(std::move(Inner)) {}
  const ClangTidyGlobalOptions &getGlobalOptions() override {
    return Inner->getGlobalOptions();
  }
  std::vector<OptionsSource> getRawOptions(llvm::StringRef File) override {
    std::vector<OptionsSource> Sources = Inner->getRawOptions(File);
    for (OptionsSource &S : Sources)
      if (S.first.Checks)
        S.first.Checks = captureChecksOf(*S.first.Checks);
    return Sources;
  }

private:
  std::unique_ptr<ClangTidyOptionsProvider> Inner;
};
} // namespace

static std::unique_ptr<ClangTidyOptionsProvider>
clangTidyProvider(const RunConfig &Config, const ClangTidyOptions &Forced,
                  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS) {
  ClangTidyOptions Over = Forced;
  if (Config.ChecksGiven)
    Over.Checks =
        "-*," + Config.ChecksGlob + (Forced.Checks ? "," + *Forced.Checks : "");
  if (Config.ConfigText.empty())
    return std::make_unique<clang::tidy::FileOptionsProvider>(
        ClangTidyGlobalOptions(), captureDefaults(), Over, FS);
  // readConfigFile has checked that it parses.
  auto Parsed = clang::tidy::parseConfiguration(
      llvm::MemoryBufferRef(Config.ConfigText, "--config-file"));
  return std::make_unique<clang::tidy::ConfigOptionsProvider>(
      ClangTidyGlobalOptions(), captureDefaults(),
      Parsed ? *Parsed : ClangTidyOptions(), Over, FS);
}

std::unique_ptr<ClangTidyOptionsProvider>
tidyOptionsProvider(const RunConfig &Config, const ClangTidyOptions &Forced,
                    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS) {
  return std::make_unique<CaptureChecksProvider>(
      clangTidyProvider(Config, Forced, FS));
}

std::string noCaptureCheckError(const RunConfig &Config, llvm::StringRef File) {
  auto Provider = tidyOptionsProvider(Config);
  std::string Path = absolutePath(File);
  if (!enabledChecks(Provider->getOptions(Path).Checks.value_or("")).empty())
    return "";
  // The last source that said something about capture checks did it.
  auto Raw = clangTidyProvider(Config, {}, nullptr)->getRawOptions(Path);
  for (auto It = Raw.rbegin(); It != Raw.rend(); ++It)
    if (It->first.Checks && captureChecksOf(*It->first.Checks)) {
      llvm::StringRef Name = It->second;
      std::string Source = Name == "command-line option" ? "--checks"
                           : Name.starts_with("command-line option")
                               ? "--config-file (or --config)"
                               : "'" + Name.str() + "'";
      return Source + " enables no capture check for '" + File.str() +
             "' (Checks: '" + llvm::StringRef(*It->first.Checks).trim().str() +
             "'); only capture-* patterns select among capture-lint's "
             "checks, so name one to enable, or leave them out for the "
             "defaults";
    }
  return "the configuration enables no capture check for '" + File.str() + "'";
}

llvm::Error checkConfigText(llvm::StringRef Text, llvm::StringRef Origin) {
  std::string Problem;
  auto Parsed = clang::tidy::parseConfigurationWithDiags(
      llvm::MemoryBufferRef(Text, Origin), [&](const llvm::SMDiagnostic &D) {
        if (Problem.empty())
          Problem = Origin.str() + ":" + std::to_string(D.getLineNo()) + ":" +
                    std::to_string(D.getColumnNo() + 1) + ": " +
                    D.getMessage().str();
      });
  if (Parsed)
    return llvm::Error::success();
  if (Problem.empty())
    Problem = Origin.str() + ": " + Parsed.getError().message();
  return llvm::createStringError(std::errc::invalid_argument,
                                 "'%s' is not a clang-tidy configuration: %s",
                                 Origin.str().c_str(), Problem.c_str());
}

llvm::Expected<std::string> readConfigFile(const std::string &Path) {
  auto Text = readRegularFile(Path, 1u << 20);
  if (!Text)
    return llvm::createStringError(std::errc::invalid_argument,
                                   "--config-file: %s",
                                   llvm::toString(Text.takeError()).c_str());
  if (llvm::Error E = checkConfigText(*Text, Path))
    return llvm::createStringError(std::errc::invalid_argument,
                                   "--config-file: %s",
                                   llvm::toString(std::move(E)).c_str());
  return std::move(*Text);
}

std::vector<std::string> tidyConfigFiles(const RunConfig &Config,
                                         llvm::StringRef File) {
  std::vector<std::string> Files;
  if (!Config.ConfigText.empty())
    return Files;
  for (const auto &Source :
       tidyOptionsProvider(Config)->getRawOptions(absolutePath(File)))
    if (llvm::sys::path::is_absolute(Source.second) &&
        llvm::sys::fs::is_regular_file(Source.second))
      Files.push_back(Source.second);
  return Files;
}

std::vector<std::string> configuredChecks(const RunConfig &Config,
                                          llvm::StringRef File) {
  ClangTidyOptions O =
      tidyOptionsProvider(Config)->getOptions(absolutePath(File));
  return enabledChecks(O.Checks.value_or(""));
}

std::string dumpConfig(const RunConfig &Config, llvm::StringRef File) {
  return clang::tidy::configurationAsText(
      tidyOptionsProvider(Config)->getOptions(absolutePath(File)));
}

void applyConfiguredChecks(Report &R, const RunConfig &Config) {
  auto Provider = tidyOptionsProvider(Config);
  std::map<std::string, std::set<std::string>> ByDirectory;
  std::set<std::string> Reported;
  auto Enabled = [&](const std::string &File) -> const std::set<std::string> & {
    std::string Dir = llvm::sys::path::parent_path(absolutePath(File)).str();
    auto It = ByDirectory.find(Dir);
    if (It == ByDirectory.end()) {
      ClangTidyOptions O = Provider->getOptions(absolutePath(File));
      std::vector<std::string> Checks = enabledChecks(O.Checks.value_or(""));
      It =
          ByDirectory
              .emplace(Dir, std::set<std::string>(Checks.begin(), Checks.end()))
              .first;
    }
    return It->second;
  };
  // A configuration that turns every check off is bad input, not silence.
  for (const std::string &File : R.AnalyzedFiles)
    if (Enabled(File).empty())
      if (std::string Why = noCaptureCheckError(Config, File);
          Reported.insert(Why.substr(0, Why.find(" enables"))).second)
        R.Errors.push_back({{File}, Why});
  llvm::erase_if(R.Findings, [&](const ReportFinding &F) {
    const std::string &File =
        F.HasRegion && !F.RegionFile.empty() ? F.RegionFile : F.Loc.File;
    return !File.empty() && !Enabled(File).count(F.Check);
  });
}

void applyConfiguredHeaderFilter(Report &R, const RunConfig &Config,
                                 const std::string *CommandLineFilter) {
  auto Provider = tidyOptionsProvider(Config);
  std::map<std::string, std::unique_ptr<llvm::Regex>> Compiled;
  std::set<std::string> Reported;
  filterHeaderFindings(R, Config.Files, [&](llvm::StringRef File) {
    std::optional<std::string> Filter;
    if (CommandLineFilter)
      Filter = *CommandLineFilter;
    else
      Filter = Provider->getOptions(absolutePath(File)).HeaderFilterRegex;
    if (!Filter)
      return true;
    auto &Re = Compiled[*Filter];
    if (!Re)
      Re = std::make_unique<llvm::Regex>(*Filter);
    std::string Why;
    if (Re->isValid(Why))
      return Re->match(File);
    if (Reported.insert(*Filter).second)
      R.Errors.push_back({{File.str()},
                          "HeaderFilterRegex '" + *Filter +
                              "' in the clang-tidy configuration is not a "
                              "valid regex: " +
                              Why});
    return true;
  });
}

llvm::Expected<ClangTidyGlobalOptions>
parseLineFilterOption(llvm::StringRef Json) {
  ClangTidyGlobalOptions G;
  if (std::error_code EC = clang::tidy::parseLineFilter(Json, G))
    return llvm::createStringError(
        std::errc::invalid_argument,
        "--line-filter='%s' is not clang-tidy's line filter, a JSON list "
        "such as [{\"name\":\"a.cu\",\"lines\":[[1,30]]}]: %s",
        Json.str().c_str(), EC.message().c_str());
  return G;
}

/// clang-tidy's ClangTidyDiagnosticConsumer::passesLineFilter.
static bool passesLineFilter(const ClangTidyGlobalOptions &G,
                             llvm::StringRef File, unsigned Line) {
  for (const clang::tidy::FileFilter &Filter : G.LineFilter) {
    if (!File.ends_with(Filter.Name))
      continue;
    if (Filter.LineRanges.empty())
      return true;
    for (const clang::tidy::FileFilter::LineRange &Range : Filter.LineRanges)
      if (Range.first <= Line && Line <= Range.second)
        return true;
    return false;
  }
  return false;
}

void applyLineFilter(Report &R, const ClangTidyGlobalOptions &Filter) {
  if (Filter.LineFilter.empty())
    return;
  llvm::erase_if(R.Findings, [&](const ReportFinding &F) {
    return !passesLineFilter(Filter, F.Loc.File, F.Loc.Line);
  });
}

} // namespace capture_lint
