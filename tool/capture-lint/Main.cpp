//===- Main.cpp - The capture-lint command line ---------------------------===//
//
//   capture-lint [options] FILE... [-- COMPILER ARGS]
//   capture-lint [options] -p BUILD_DIR [FILE...]
//
// Exit status: 0 clean, 1 findings (errors or warnings), 2 the tool could not
// do its job (bad flags, missing files, unparseable sources, bad catalogs).
//
//===----------------------------------------------------------------------===//

#include "Delivery.h"
#include "ExportDatabase.h"
#include "Options.h"
#include "OutputGuard.h"
#include "PythonLsp.h"
#include "Report.h"
#include "Runner.h"
#include "SafeWrite.h"
#include "Subcommands.h"
#include "TidyCompat.h"
#include "Version.h"
#include <map>
#include <set>

#include "capture_lint/ProjectConfig.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <iostream>
#include <pthread.h>
#include <thread>

using namespace capture_lint;

namespace {

/// --print-clang-flags: one line a shell splits into the flags.
int printClangFlags(const Options &O, const char *Argv0) {
  SourceLanguage Lang =
      O.PrintClangFlags == "hip" ? SourceLanguage::Hip : SourceLanguage::Cuda;
  std::string Line;
  for (const std::string &Flag : addedFlags(Lang, findToolPaths(Argv0))) {
    if (!Line.empty())
      Line += ' ';
    bool Plain = llvm::all_of(Flag, [](char C) {
      return llvm::isAlnum(C) || llvm::StringRef("-_=/.+,:@").contains(C);
    });
    Line += Plain ? Flag : "'" + Flag + "'";
  }
  return writeOutput(O.Output, Line + "\n") ? 0 : 2;
}

/// --export-compile-db: the translated database, or an error naming the
/// culprit (exit 2).
int exportDatabase(const Options &O, const char *Argv0) {
  if (O.Run.BuildDir.empty())
    usageError("--export-compile-db needs -p BUILD_DIR, the directory of the "
               "compile_commands.json to translate");
  if (!O.Run.Files.empty())
    usageError("--export-compile-db exports the whole database; '" +
               O.Run.Files.front() + "' is not used (give no FILE)");
  ExportRequest Req{O.Run.BuildDir, O.ExportCompileDb, O.Run.ExtraArgsBefore,
                    O.Run.ExtraArgs, findToolPaths(Argv0)};
  auto Result = exportCompileDatabase(Req);
  if (!Result) {
    llvm::errs() << "capture-lint: error: "
                 << llvm::toString(Result.takeError()) << "\n";
    return 2;
  }
  for (const std::string &W : Result->Warnings)
    llvm::errs() << "capture-lint: warning: " << W << "\n";
  if (!O.Quiet)
    llvm::errs() << "capture-lint: wrote " << Result->Entries << " entr"
                 << (Result->Entries == 1 ? "y" : "ies") << " to '"
                 << Result->OutFile << "'\n";
  return 0;
}

/// Reads --config-file (or checks --config) into the run's configuration;
/// false after printing an error naming the file and the problem.
bool loadTidyConfig(Options &O) {
  if (!O.ConfigFile.empty()) {
    auto Text = readConfigFile(O.ConfigFile);
    if (!Text) {
      llvm::errs() << "capture-lint: error: "
                   << llvm::toString(Text.takeError()) << "\n";
      return false;
    }
    O.Run.ConfigText = std::move(*Text);
  } else if (!O.ConfigInline.empty()) {
    if (llvm::Error E = checkConfigText(O.ConfigInline, "--config")) {
      llvm::errs() << "capture-lint: error: " << llvm::toString(std::move(E))
                   << "\n";
      return false;
    }
    O.Run.ConfigText = O.ConfigInline;
  }
  return true;
}

/// The file whose configuration --dump-config and --list-checks show.
std::string configSubject(const Options &O) {
  return O.Run.Files.empty() ? "-" : O.Run.Files.front();
}

/// `[12/240] src/x.cu` on stderr, rewritten in place, for a database run
/// when stderr is a terminal; cleared again by finishProgress.
void setUpProgress(Options &O) {
  if (O.Quiet || O.Run.BuildDir.empty() ||
      !llvm::sys::Process::StandardErrIsDisplayed())
    return;
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  O.Run.Progress = [Cwd = std::string(Cwd)](unsigned Done, unsigned Total,
                                            const std::string &File) {
    llvm::StringRef Shown = File;
    if (Shown.consume_front(Cwd) && Shown.consume_front("/")) {
    } else {
      Shown = File;
    }
    llvm::errs() << "\r[" << Done << "/" << Total << "] " << Shown << "\x1b[K";
    llvm::errs().flush();
  };
}

void finishProgress(const Options &O) {
  if (O.Run.Progress)
    llvm::errs() << "\r\x1b[K";
}

} // namespace

/// The catalog of every input (a bad one is said and gives null); the
/// first input's.
static std::shared_ptr<const Catalog> loadCatalogs(const Options &O) {
  std::vector<std::string> CatalogKeys = O.Run.Files;
  if (CatalogKeys.empty())
    CatalogKeys.push_back("./-");
  std::shared_ptr<const Catalog> FirstCatalog;
  for (const std::string &F : CatalogKeys) {
    auto Cat = effectiveCatalog(F, O.Run.Catalogs);
    if (!Cat) {
      llvm::errs() << "capture-lint: error: " << llvm::toString(Cat.takeError())
                   << "\n";
      return nullptr;
    }
    if (!FirstCatalog)
      FirstCatalog = *Cat;
  }
  return FirstCatalog;
}

/// Whether --checks enables any check (if not, says which exist).
static bool checksEnabled(const Options &O) {
  std::vector<std::string> Checks = enabledChecks(O.Run.ChecksGlob);
  if (Checks.empty()) {
    llvm::errs() << "capture-lint: error: --checks='" << O.Run.ChecksGlob
                 << "' enables no check; known checks:";
    for (const CheckInfo &C : allChecks())
      llvm::errs() << " " << C.Name;
    llvm::errs() << "\n";
    return false;
  }
  return true;
}

/// The baseline, probe report, cache directory and header filter a run
/// uses: false (after saying why) when one is unusable.
static bool checkRunInputs(Options &O) {
  if (!O.Baseline.empty() && !llvm::sys::fs::exists(O.Baseline)) {
    llvm::errs() << "capture-lint: error: baseline '" << O.Baseline
                 << "' does not exist (write one with --write-baseline)\n";
    return false;
  }
  if (!O.Confirm.empty() && !llvm::sys::fs::exists(O.Confirm)) {
    llvm::errs() << "capture-lint: error: probe report '" << O.Confirm
                 << "' does not exist (write one with capture-probe run)\n";
    return false;
  }
  if (O.NoCache)
    O.Run.CacheDir.clear();
  else if (!O.CacheDirGiven && !O.Run.BuildDir.empty())
    O.Run.CacheDir =
        (llvm::Twine(O.Run.BuildDir) + "/.capture-lint-cache").str();
  if (!O.Run.CacheDir.empty() && llvm::sys::fs::exists(O.Run.CacheDir) &&
      !llvm::sys::fs::is_directory(O.Run.CacheDir)) {
    llvm::errs() << "capture-lint: error: cache directory '" << O.Run.CacheDir
                 << "' exists and is not a directory\n";
    return false;
  }
  if (O.HeaderFilterGiven) {
    std::string Error = headerFilterError(O.HeaderFilter);
    if (!Error.empty())
      usageError(Error);
  }
  if (O.SystemHeaders)
    llvm::errs() << "capture-lint: warning: --system-headers changes nothing: "
                    "the capture checks analyse only code outside system "
                    "headers (a region in a system header is a library's, "
                    "and calls into one are judged by the API catalog)\n";
  return true;
}

/// A reader that closes the pipe early (`capture-lint ... | head -1`) makes
/// writing the report fail with EPIPE, an error said like any other (exit
/// 2), instead of killing the process with SIGPIPE: the signal is blocked
/// here, before any thread starts, so every thread inherits the mask.
static void blockSigpipe() {
  sigset_t Set;
  sigemptyset(&Set);
  sigaddset(&Set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &Set, nullptr);
}

int main(int Argc, char **Argv) {
  blockSigpipe();
  Options O = parseArgs(Argc, Argv);
  if (O.Help)
    return writeOutput("", UsageText) ? 0 : 2;
  if (O.Version)
    return writeOutput("", std::string("capture-lint ") + CAPTURE_LINT_VERSION +
                               " (LLVM " + CAPTURE_LINT_LLVM_VERSION + ")\n")
               ? 0
               : 2;
  if (!O.ExportCompileDb.empty())
    return exportDatabase(O, Argv[0]);
  if (!O.PrintClangFlags.empty())
    return printClangFlags(O, Argv[0]);
  if (!loadTidyConfig(O))
    return 2;
  if (O.DumpConfig)
    return writeOutput(O.Output, dumpConfig(O.Run, configSubject(O))) ? 0 : 2;
  clang::tidy::ClangTidyGlobalOptions LineFilter;
  if (!O.LineFilter.empty()) {
    auto Parsed = parseLineFilterOption(O.LineFilter);
    if (!Parsed)
      usageError(llvm::toString(Parsed.takeError()));
    LineFilter = std::move(*Parsed);
  }

  // Nothing may write over a file this run reads (-o a.cu a.cu).
  if (!outputsSpareInputs(
          O,
          // --write-baseline may replace the baseline it no longer reads.
          inputsOfRun(O.Run,
                      {O.WriteBaseline.empty() ? O.Baseline : "", O.Confirm})))
    return 2;

  // Catalogs first: a bad one is a configuration error, not a finding.
  std::shared_ptr<const Catalog> FirstCatalog = loadCatalogs(O);
  if (!FirstCatalog)
    return 2;
  if (O.ExportCatalog)
    return writeOutput(O.Output, FirstCatalog->toJson()) ? 0 : 2;

  if (!checksEnabled(O))
    return 2;
  if (O.ListChecks) {
    if (std::string Why = noCaptureCheckError(O.Run, configSubject(O));
        !Why.empty()) {
      llvm::errs() << "capture-lint: error: " << Why << "\n";
      return 2;
    }
    std::string Text;
    for (const std::string &C : configuredChecks(O.Run, configSubject(O)))
      Text += C + "\n";
    return writeOutput(O.Output, Text) ? 0 : 2;
  }
  if (O.Subcommand == "summarize") {
    O.Run.Paths = findToolPaths(Argv[0]);
    llvm::CrashRecoveryContext::Enable();
    return runSummarize(O);
  }
  if (O.Subcommand == "launch") {
    O.Run.Paths = findToolPaths(Argv[0]);
    llvm::CrashRecoveryContext::Enable();
    return runLaunch(O);
  }
  if (O.Subcommand == "link")
    return runLink(O, LineFilter);
  if (!O.ImportRoles.empty())
    usageError("--import-roles is for summarize");
  O.Run.CacheRoot = O.Root; // a lint run's --root: its cache's
  if (O.Lsp)
    return serveLsp(O.Run, std::cin, std::cout);
  if (O.Run.Files.empty() && O.Run.BuildDir.empty())
    usageError("no input files (give FILE... or -p BUILD_DIR)");

  if (!checkRunInputs(O))
    return 2;
  O.Run.Paths = findToolPaths(Argv[0]);
  setUpProgress(O);
  llvm::CrashRecoveryContext::Enable();
  Report R = runAnalysis(O.Run);
  finishProgress(O);
  return deliverReport(R, O, LineFilter);
}
