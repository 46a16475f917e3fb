//===- Main.cpp - The capture-lint command line ---------------------------===//
//
//   capture-lint [options] FILE... [-- COMPILER ARGS]
//   capture-lint [options] -p BUILD_DIR [FILE...]
//
// Exit status: 0 clean, 1 findings (errors or warnings), 2 the tool could not
// do its job (bad flags, missing files, unparseable sources, bad catalogs).
//
//===----------------------------------------------------------------------===//

#include "Baseline.h"
#include "OutputGuard.h"
#include "PythonLsp.h"
#include "Report.h"
#include "Runner.h"
#include "SafeWrite.h"
#include "TidyCompat.h"
#include "Version.h"
#include <map>

#include "capture_lint/ProjectConfig.h"

#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <iostream>
#include <thread>

using namespace capture_lint;

extern volatile int CaptureModuleAnchorSource;
static int CaptureModuleAnchor = CaptureModuleAnchorSource;

static const char Usage[] =
    R"(USAGE: capture-lint [options] FILE... [-- COMPILER ARGS]
       capture-lint [options] -p BUILD_DIR [FILE...]

Finds code that breaks or silently corrupts CUDA/HIP graph capture.

Inputs:
  FILE...              .cu .cuh .hip .cpp .cc .cxx .h .hpp files, and .py
                       files or directories (walked for .py files) for the
                       PyTorch front end (see docs/python.md)
  -p BUILD_DIR         read compile_commands.json from BUILD_DIR (nvcc and
                       hipcc commands are translated); with no FILE, every
                       file in it is analysed
  -- ARGS              compile flags for every FILE (instead of defaults)

Output:
  --format=FORMAT      text (default), json, sarif, or github (annotations
                       for GitHub Actions pull requests)
  -o FILE              write the report to FILE (atomically) instead of stdout
  --quiet              no summary line on stderr
  --sarif-root=DIR     SARIF URIs are relative to DIR (%SRCROOT%; default:
                       the current directory)

CI adoption:
  --write-baseline=FILE  record today's findings in FILE (exit 0 unless the
                       tool failed)
  --baseline=FILE      report only findings that FILE does not record
  --report-only        exit 0 even when there are findings
  --confirm=REPORT     give each finding a runtime verdict from a
                       capture-probe report (confirmed, not-confirmed,
                       not-reached) and report what the probe saw that no
                       finding covers (see docs/runtime-probe.md)

Fixes:
  --fix                apply the mechanical fixes (the capturing stream passed
                       to legacy-stream work), writing files atomically
  --export-fixes=FILE  write the fixes as clang-tidy YAML for
                       clang-apply-replacements

Analysis:
  --checks=GLOB        which capture checks run (default: capture-*)
  --catalog=FILE       add a catalog file (repeatable); a .capture-lint.json
                       above each analysed file is used too
  -j N                 analyse N files in parallel (default: all cores)
  --max-call-depth=N   how deep calls out of a region are followed (default 8)

clang-tidy's spellings (single-dash forms such as -checks=, -fix and -quiet
work too):
  --extra-arg=ARG      add ARG to every compiler command (repeatable)
  --extra-arg-before=ARG  add ARG right after the compiler (repeatable)
  --warnings-as-errors=GLOB  findings of the checks GLOB names are errors
  --header-filter=REGEX  report findings in headers only when their path
                       matches REGEX (default: every header of user code)

Whole program (calls from a region into functions other files define are
followed; see docs/whole-program.md):
  --cache-dir=DIR      keep each file's result in DIR and reuse it while
                       nothing the file reads has changed (default with -p:
                       BUILD_DIR/.capture-lint-cache)
  --no-cache           neither read nor write the cache
  --cached-summaries-only  with -p and FILE: follow calls into the database's
                       other files only through cached summaries (faster on
                       a cold cache; a warning says how many were missing)
                       instead of analysing those files for their summaries

Editors:
  --lsp                serve diagnostics for Python files over stdio (the
                       Language Server Protocol; C++ is capture-clangd's)

Information:
  --list-checks        print the enabled checks and exit
  --export-catalog     print the effective API catalog as JSON and exit
  --version, --help

Exit status: 0 no findings, 1 findings, 2 the tool could not do its job.
)";

namespace {

struct Options {
  RunConfig Run;
  std::string Format = "text";
  std::string Output;
  bool Quiet = false;
  bool Fix = false;
  bool ReportOnly = false;
  std::string Baseline, WriteBaseline, Confirm;
  std::string ExportFixes;
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
};

/// The long options clang-tidy users may spell with one dash.
const llvm::StringRef LongOptions[] = {"checks",
                                       "fix",
                                       "quiet",
                                       "format",
                                       "export-fixes",
                                       "extra-arg",
                                       "extra-arg-before",
                                       "header-filter",
                                       "warnings-as-errors",
                                       "list-checks",
                                       "version",
                                       "help",
                                       "output"};

[[noreturn]] void usageError(const std::string &Msg) {
  llvm::errs() << "capture-lint: error: " << Msg
               << " (see capture-lint --help)\n";
  std::exit(2);
}

/// Reads `--name=value` or `--name value` (and `-p DIR`, `-pDIR`).
bool takeValue(llvm::StringRef Arg, llvm::StringRef Name, int &I, int Argc,
               char **Argv, std::string &Out) {
  if (Arg == Name) {
    if (I + 1 >= Argc)
      usageError("option '" + Name.str() + "' needs a value");
    Out = Argv[++I];
    return true;
  }
  if (Arg.starts_with(Name.str() + "=")) {
    Out = Arg.substr(Name.size() + 1).str();
    return true;
  }
  return false;
}

Options parseArgs(int Argc, char **Argv) {
  Options O;
  O.Run.Jobs = std::max(1u, std::thread::hardware_concurrency());
  for (int I = 1; I < Argc; ++I) {
    std::string Spelled = doubleDashSpelling(Argv[I], LongOptions);
    llvm::StringRef A = Spelled;
    std::string V;
    if (A == "--") {
      O.Run.HasExplicitFlags = true;
      for (++I; I < Argc; ++I)
        O.Run.ExplicitFlags.push_back(Argv[I]);
      break;
    }
    if (A == "--help" || A == "-h")
      O.Help = true;
    else if (A == "--version")
      O.Version = true;
    else if (A == "--list-checks")
      O.ListChecks = true;
    else if (A == "--export-catalog")
      O.ExportCatalog = true;
    else if (A == "--quiet" || A == "-q")
      O.Quiet = true;
    else if (A == "--fix")
      O.Fix = true;
    else if (A == "--report-only")
      O.ReportOnly = true;
    else if (A == "--no-cache")
      O.NoCache = true;
    else if (A == "--cached-summaries-only")
      O.Run.CachedSummariesOnly = true;
    else if (A == "--lsp")
      O.Lsp = true;
    else if (takeValue(A, "--cache-dir", I, Argc, Argv, V)) {
      if (V.empty())
        usageError("--cache-dir needs a directory");
      O.Run.CacheDir = V;
      O.CacheDirGiven = true;
    } else if (takeValue(A, "--max-call-depth", I, Argc, Argv, V)) {
      unsigned N = 0;
      if (llvm::StringRef(V).getAsInteger(10, N) || N == 0 || N > 64)
        usageError("--max-call-depth needs a number between 1 and 64, not '" +
                   V + "'");
      O.Run.MaxCallDepth = N;
    } else if (takeValue(A, "--baseline", I, Argc, Argv, V))
      O.Baseline = V;
    else if (takeValue(A, "--confirm", I, Argc, Argv, V))
      O.Confirm = V;
    else if (takeValue(A, "--write-baseline", I, Argc, Argv, V))
      O.WriteBaseline = V;
    else if (takeValue(A, "--export-fixes", I, Argc, Argv, V))
      O.ExportFixes = V;
    else if (takeValue(A, "--format", I, Argc, Argv, V)) {
      if (V != "text" && V != "json" && V != "sarif" && V != "github")
        usageError("unknown format '" + V +
                   "' (expected text, json, sarif, github)");
      O.Format = V;
    } else if (takeValue(A, "-o", I, Argc, Argv, V) ||
               takeValue(A, "--output", I, Argc, Argv, V))
      O.Output = V;
    else if (takeValue(A, "--checks", I, Argc, Argv, V))
      O.Run.ChecksGlob = V;
    else if (takeValue(A, "--sarif-root", I, Argc, Argv, V))
      O.SarifRoot = V;
    else if (takeValue(A, "--extra-arg", I, Argc, Argv, V))
      O.Run.ExtraArgs.push_back(V);
    else if (takeValue(A, "--extra-arg-before", I, Argc, Argv, V))
      O.Run.ExtraArgsBefore.push_back(V);
    else if (takeValue(A, "--warnings-as-errors", I, Argc, Argv, V))
      O.WarningsAsErrors = V;
    else if (takeValue(A, "--header-filter", I, Argc, Argv, V)) {
      O.HeaderFilter = V;
      O.HeaderFilterGiven = true;
    } else if (takeValue(A, "--catalog", I, Argc, Argv, V))
      O.Run.Catalogs.push_back(V);
    else if (takeValue(A, "-p", I, Argc, Argv, V))
      O.Run.BuildDir = V;
    else if (A.starts_with("-p") && A.size() > 2 && !A.starts_with("-p="))
      O.Run.BuildDir = A.substr(2).str();
    else if (takeValue(A, "-j", I, Argc, Argv, V) ||
             (A.starts_with("-j") && A.size() > 2 &&
              (V = A.substr(2).str(), true))) {
      unsigned N = 0;
      if (llvm::StringRef(V).getAsInteger(10, N) || N == 0 || N > 1024)
        usageError("-j needs a number between 1 and 1024, not '" + V + "'");
      O.Run.Jobs = N;
    } else if (A.starts_with("-") && A != "-")
      usageError("unknown option '" + A.str() + "'");
    else
      O.Run.Files.push_back(A.str());
  }
  return O;
}

ToolPaths findToolPaths(const char *Argv0) {
  ToolPaths P;
  P.ResourceDir = CAPTURE_LINT_RESOURCE_DIR;
  P.CudaPath = detectCudaPath();
  std::string Exe = llvm::sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&findToolPaths));
  llvm::SmallString<256> Installed(llvm::sys::path::parent_path(Exe));
  llvm::sys::path::append(Installed, "..", "share", "capture-lint", "compat");
  if (llvm::sys::fs::is_directory(Installed))
    P.CompatDir = std::string(Installed);
  else
    P.CompatDir = CAPTURE_LINT_SOURCE_COMPAT_DIR;
  return P;
}

/// Writes the report (or a baseline, the fixes) to \p Path, or to stdout
/// for "" and "-"; see SafeWrite.h.
bool writeOutput(const std::string &Path, const std::string &Text) {
  llvm::Error E = Path.empty() || Path == "-" ? writeStdout(Text)
                                              : writeFileSafely(Path, Text);
  if (!E)
    return true;
  llvm::errs() << "capture-lint: error: " << llvm::toString(std::move(E))
               << "\n";
  return false;
}

/// A cache that cannot be written is an error (exit 2): once, with the
/// first entry's reason, however many entries failed the same way.
void reportCacheErrors(const std::vector<std::string> &Errors) {
  if (Errors.empty())
    return;
  llvm::errs() << "capture-lint: error: cache: " << Errors.front();
  if (Errors.size() > 1)
    llvm::errs() << " (and " << Errors.size() - 1 << " more entr"
                 << (Errors.size() == 2 ? "y" : "ies") << ")";
  llvm::errs() << "; the findings above are complete, but nothing was "
                  "cached\n";
}

} // namespace

int main(int Argc, char **Argv) {
  (void)CaptureModuleAnchor;
  Options O = parseArgs(Argc, Argv);
  if (O.Help)
    return writeOutput("", Usage) ? 0 : 2;
  if (O.Version)
    return writeOutput("", std::string("capture-lint ") + CAPTURE_LINT_VERSION +
                               " (LLVM " + CAPTURE_LINT_LLVM_VERSION + ")\n")
               ? 0
               : 2;

  // Nothing may write over a file this run reads (-o a.cu a.cu).
  if (llvm::Error E = checkOutputsAreNotInputs(
          {{"-o", O.Output},
           {"--write-baseline", O.WriteBaseline},
           {"--export-fixes", O.ExportFixes}},
          // --write-baseline may replace the baseline it no longer reads.
          inputsOfRun(
              O.Run, {O.WriteBaseline.empty() ? O.Baseline : "", O.Confirm}))) {
    llvm::errs() << "capture-lint: error: " << llvm::toString(std::move(E))
                 << "\n";
    return 2;
  }

  // Catalogs first: a bad one is a configuration error, not a finding.
  std::vector<std::string> CatalogKeys = O.Run.Files;
  if (CatalogKeys.empty())
    CatalogKeys.push_back("./-");
  std::shared_ptr<const Catalog> FirstCatalog;
  for (const std::string &F : CatalogKeys) {
    auto Cat = effectiveCatalog(F, O.Run.Catalogs);
    if (!Cat) {
      llvm::errs() << "capture-lint: error: " << llvm::toString(Cat.takeError())
                   << "\n";
      return 2;
    }
    if (!FirstCatalog)
      FirstCatalog = *Cat;
  }
  if (O.ExportCatalog)
    return writeOutput(O.Output, FirstCatalog->toJson()) ? 0 : 2;

  std::vector<std::string> Checks = enabledChecks(O.Run.ChecksGlob);
  if (Checks.empty()) {
    llvm::errs() << "capture-lint: error: --checks='" << O.Run.ChecksGlob
                 << "' enables no check; known checks:";
    for (const CheckInfo &C : allChecks())
      llvm::errs() << " " << C.Name;
    llvm::errs() << "\n";
    return 2;
  }
  if (O.ListChecks) {
    std::string Text;
    for (const std::string &C : Checks)
      Text += C + "\n";
    return writeOutput(O.Output, Text) ? 0 : 2;
  }
  if (O.Lsp)
    return serveLsp(O.Run, std::cin, std::cout);
  if (O.Run.Files.empty() && O.Run.BuildDir.empty())
    usageError("no input files (give FILE... or -p BUILD_DIR)");

  if (!O.Baseline.empty() && !llvm::sys::fs::exists(O.Baseline)) {
    llvm::errs() << "capture-lint: error: baseline '" << O.Baseline
                 << "' does not exist (write one with --write-baseline)\n";
    return 2;
  }
  if (!O.Confirm.empty() && !llvm::sys::fs::exists(O.Confirm)) {
    llvm::errs() << "capture-lint: error: probe report '" << O.Confirm
                 << "' does not exist (write one with capture-probe run)\n";
    return 2;
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
    return 2;
  }
  if (O.HeaderFilterGiven) {
    std::string Error = headerFilterError(O.HeaderFilter);
    if (!Error.empty())
      usageError(Error);
  }
  O.Run.Paths = findToolPaths(Argv[0]);
  llvm::CrashRecoveryContext::Enable();
  Report R = runAnalysis(O.Run);
  if (O.HeaderFilterGiven)
    applyHeaderFilter(R, O.HeaderFilter, O.Run.Files);
  applyWarningsAsErrors(R, O.WarningsAsErrors);
  if (!O.WriteBaseline.empty()) {
    if (!writeOutput(O.WriteBaseline, baselineJson(R, O.WriteBaseline)))
      return 2;
    llvm::errs() << "capture-lint: wrote a baseline of " << R.Findings.size()
                 << " finding" << (R.Findings.size() == 1 ? "" : "s") << " to '"
                 << O.WriteBaseline << "'\n";
    return R.Errors.empty() ? 0 : 2;
  }
  unsigned Baselined = 0;
  if (!O.Baseline.empty()) {
    auto Removed = applyBaseline(R, O.Baseline);
    if (!Removed) {
      llvm::errs() << "capture-lint: error: "
                   << llvm::toString(Removed.takeError()) << "\n";
      return 2;
    }
    Baselined = *Removed;
  }

  if (!O.Confirm.empty()) {
    std::string Error = confirmWithProbe(R, O.Confirm);
    if (!Error.empty()) {
      llvm::errs() << "capture-lint: error: --confirm: " << Error << "\n";
      return 2;
    }
  }

  std::string Text;
  llvm::raw_string_ostream OS(Text);
  if (O.Format == "json")
    writeJson(R, OS);
  else if (O.Format == "sarif")
    writeSarif(R, OS, O.SarifRoot);
  else if (O.Format == "github")
    writeGithub(R, OS);
  else
    writeText(R, OS);
  OS.flush();
  bool Written = writeOutput(O.Output, Text);
  if (!O.ExportFixes.empty())
    Written = writeOutput(O.ExportFixes, fixesAsYaml(R)) && Written;
  if (O.Fix) {
    FixOutcome Fixed = applyFixes(R, R.Warnings);
    llvm::errs() << "capture-lint: applied " << Fixed.Applied << " fix"
                 << (Fixed.Applied == 1 ? "" : "es") << " to "
                 << Fixed.FilesChanged << " file"
                 << (Fixed.FilesChanged == 1 ? "" : "s") << "\n";
    for (const std::string &Failure : Fixed.Failures)
      llvm::errs() << "capture-lint: error: --fix: " << Failure << "\n";
    Written = Written && Fixed.Failures.empty();
  }

  for (const std::string &W : R.Warnings)
    llvm::errs() << "capture-lint: warning: " << W << "\n";
  reportCacheErrors(R.CacheErrors);
  if (!O.Quiet) {
    unsigned Remarks =
        R.Findings.size() + R.Missed.size() - R.failingFindings();
    llvm::errs() << "capture-lint: " << R.FilesAnalyzed << " file"
                 << (R.FilesAnalyzed == 1 ? "" : "s") << " analysed";
    if (R.FilesFromCache)
      llvm::errs() << " (" << R.FilesFromCache << " unchanged, from the cache)";
    if (R.OtherFilesSummarized)
      llvm::errs() << " and " << R.OtherFilesSummarized << " other file"
                   << (R.OtherFilesSummarized == 1 ? "" : "s")
                   << " of the database summarised for calls into them";
    llvm::errs() << ", " << R.failingFindings() << " finding"
                 << (R.failingFindings() == 1 ? "" : "s");
    if (Baselined)
      llvm::errs() << " (" << Baselined << " more in the baseline)";
    if (Remarks)
      llvm::errs() << " and " << Remarks << " remark"
                   << (Remarks == 1 ? "" : "s");
    if (R.Confirmed) {
      std::map<std::string, unsigned> Count;
      for (const ReportFinding &F : R.Findings)
        ++Count[F.Verdict.Status];
      llvm::errs() << "; runtime verdicts: " << Count["confirmed"]
                   << " confirmed, " << Count["not-confirmed"]
                   << " not confirmed, " << Count["not-reached"]
                   << " not reached; " << R.Missed.size()
                   << " missed statically";
    }
    if (!R.Errors.empty())
      llvm::errs() << ", " << R.Errors.size() << " error"
                   << (R.Errors.size() == 1 ? "" : "s")
                   << " that kept files from being analysed";
    llvm::errs() << "\n";
  }
  if (!Written || !R.Errors.empty() || !R.CacheErrors.empty())
    return 2;
  return R.failingFindings() && !O.ReportOnly ? 1 : 0;
}
