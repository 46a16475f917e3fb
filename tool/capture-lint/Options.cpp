//===- Options.cpp - The capture-lint command line, parsed ----------------===//

#include "Options.h"
#include "Excludes.h"
#include "Paths.h"
#include "PyprojectConfig.h"
#include "TidyCompat.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <thread>

namespace capture_lint {

const char UsageText[] =
    R"(USAGE: capture-lint [options] FILE... [-- COMPILER ARGS]
       capture-lint [options] -p BUILD_DIR [FILE...]
       capture-lint summarize FILE -o SUMMARY [--root DIR]
                              [-p BUILD_DIR | -- COMPILER ARGS]
       capture-lint link SUMMARY... [@LIST] [-o REPORT] [--root DIR]
       capture-lint launch [--root DIR] -- COMPILER ARGS

Finds code that breaks or silently corrupts CUDA/HIP graph capture.

Inputs:
  FILE...              .cu .cuh .hip .cpp .cc .cxx .h .hpp files, and .py
                       files or directories (walked for .py files) for the
                       PyTorch front end (see docs/python.md)
  -p BUILD_DIR         read compile_commands.json from BUILD_DIR (nvcc and
                       hipcc commands are translated); with no FILE, every
                       file in it is analysed
  --exclude=GLOB       leave out the files and directories whose path or name
                       matches GLOB ('tests/*', '*_pb2.py'; repeatable).
                       Directory walks skip hidden directories, build output
                       (build, dist), site-packages and virtual environments
  -                    a Python file read from stdin (an editor's buffer)
  --stdin-filename=PATH  the name of that file in the report and for finding
                       its configuration and package (default: stdin.py
                       in the current directory)
  -- ARGS              compile flags for every FILE (instead of defaults)

  The [tool.capture-lint] table of the nearest pyproject.toml (exclude,
  checks, max-call-depth, catalog) sets the same options; the command line
  wins.

Output:
  --format=FORMAT      text (default), json, sarif, or github (annotations
                       for GitHub Actions pull requests)
  -o FILE              write the report to FILE (atomically) instead of stdout
  --quiet              no summary line on stderr
  --statistics         after the summary, the findings counted per check
                       (on stderr), most frequent first
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

Other tools (clangd, capture-clangd, clang-tidy, run-clang-tidy):
  --export-compile-db=OUT_DIR  with -p BUILD_DIR: write
                       OUT_DIR/compile_commands.json, the database translated
                       for clang as capture-lint translates it (nvcc and
                       hipcc commands, --options-file and @file expanded,
                       host-only parsing, the compat headers), and exit

Fixes:
  --fix                apply the mechanical fixes (the capturing stream passed
                       to legacy-stream work), writing files atomically
  --export-fixes=FILE  write the fixes as clang-tidy YAML for
                       clang-apply-replacements

Analysis:
  --checks=GLOB        which capture checks run (default: Checks from the
                       .clang-tidy configuration, else capture-*)
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
                       matches REGEX (default: HeaderFilterRegex from the
                       configuration, else every header of user code)
  --line-filter=JSON   report only findings on these lines:
                       [{"name":"a.cu","lines":[[1,30]]}] (a file matches
                       a name its path ends with; no "lines": all of it)
  --system-headers     accepted for clang-tidy's command lines; the capture
                       checks analyse only code outside system headers, so
                       it changes nothing (a warning says so)
  --config-file=PATH   the clang-tidy configuration to use instead of the
                       .clang-tidy files above each source (Checks,
                       HeaderFilterRegex, CheckOptions are honoured)
  --config=YAML        the same, inline
  --dump-config        print the configuration that applies (to the first
                       FILE, else the current directory) and exit
  --use-color[=BOOL]   colours in the text report (default: when stdout is
                       a terminal); a progress line goes to stderr with -p
                       when stderr is a terminal

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

At scale (a build action per file, one link; see docs/scale.md):
  summarize FILE -o SUMMARY  analyse one C++/CUDA/HIP file with the flags
                       after -- (or its command in -p BUILD_DIR's compile
                       database) and write its findings and whole-program
                       summary to SUMMARY (hermetic: paths under --root are
                       relative, records sorted; same inputs, same bytes)
  --import-roles=SUMMARY  with summarize: take the roles (openers, closers,
                       capture wrappers and predicates) that SUMMARY's file
                       defines for the functions FILE calls (repeatable;
                       @LIST names a file listing summaries)
  launch [--root DIR] -- COMPILER ARGS
                       run a build's compile command, then write the
                       object's summary beside it (OBJECT.capture-lint.sum):
                       a compiler launcher (CMAKE_CUDA_COMPILER_LAUNCHER=
                       "capture-lint;launch;--")
  --roles-out=FILE     with summarize: also write the roles the file
                       defines (openers, closers, ...) to FILE, a summary
                       holding only those, for --import-roles of the files
                       that call them (it changes only when they do)
  link SUMMARY...      read only summaries (@LIST: a file listing them, one
                       a line; a directory: the *.capture-lint.sum files
                       under it), follow calls across files and report as
                       a lint run does, in any --format
  --root=DIR           summaries' paths are relative to DIR (default: the
                       current directory); in a lint run, the cache's
                       (default: the checkout's top, where .git is)
  --exit-code-file=FILE  write the exit status to FILE, and exit 0 for
                       findings (build actions stay successful and
                       cacheable; 2 still fails)

Editors:
  --lsp                serve diagnostics for Python files over stdio (the
                       Language Server Protocol; C++ is capture-clangd's)

Information:
  --list-checks        print the enabled checks and exit
  --export-catalog     print the effective API catalog as JSON and exit
  --print-clang-flags=cuda|hip
                       print the flags capture-lint adds to a CUDA (HIP)
                       file's command (host-only parsing, the CUDA 13
                       compatibility headers) and exit; for clang-tidy with
                       the plugin: -- -x cuda $(capture-lint
                       --print-clang-flags=cuda) ...
  --version, --help

Exit status: 0 no findings, 1 findings, 2 the tool could not do its job.
)";

namespace {

/// The long options clang-tidy users may spell with one dash.
const llvm::StringRef LongOptions[] = {
    "checks",           "fix",           "quiet",
    "format",           "export-fixes",  "extra-arg",
    "extra-arg-before", "header-filter", "warnings-as-errors",
    "list-checks",      "version",       "help",
    "output",           "config",        "config-file",
    "dump-config",      "use-color",     "line-filter",
    "system-headers"};

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

/// The options without a value; false when \p A is none of them.
bool parseFlag(llvm::StringRef A, Options &O) {
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
  else if (A == "--statistics")
    O.Statistics = true;
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
  else if (A == "--dump-config")
    O.DumpConfig = true;
  else if (A == "--system-headers")
    O.SystemHeaders = true;
  else if (A == "--use-color")
    O.UseColor = true;
  else if (A.consume_front("--use-color=")) {
    if (A != "true" && A != "false" && A != "1" && A != "0")
      usageError("--use-color takes true or false, not '" + A.str() + "'");
    O.UseColor = A == "true" || A == "1";
  } else
    return false;
  return true;
}

unsigned numberIn(const std::string &V, unsigned Max, const std::string &Opt) {
  unsigned N = 0;
  if (llvm::StringRef(V).getAsInteger(10, N) || N == 0 || N > Max)
    usageError(Opt + " needs a number between 1 and " + std::to_string(Max) +
               ", not '" + V + "'");
  return N;
}

/// The options of the analysis and its inputs.
bool parseRunOption(llvm::StringRef A, int &I, int Argc, char **Argv,
                    Options &O) {
  std::string V;
  if (takeValue(A, "--cache-dir", I, Argc, Argv, V)) {
    if (V.empty())
      usageError("--cache-dir needs a directory");
    O.Run.CacheDir = V;
    O.CacheDirGiven = true;
  } else if (takeValue(A, "--max-call-depth", I, Argc, Argv, V)) {
    O.Run.MaxCallDepth = numberIn(V, 64, "--max-call-depth");
    O.MaxCallDepthGiven = true;
  } else if (takeValue(A, "--checks", I, Argc, Argv, V)) {
    O.Run.ChecksGlob = V;
    O.Run.ChecksGiven = true;
  } else if (takeValue(A, "--config-file", I, Argc, Argv, V))
    O.ConfigFile = V;
  else if (takeValue(A, "--config", I, Argc, Argv, V))
    O.ConfigInline = V;
  else if (takeValue(A, "--extra-arg", I, Argc, Argv, V))
    O.Run.ExtraArgs.push_back(V);
  else if (takeValue(A, "--extra-arg-before", I, Argc, Argv, V))
    O.Run.ExtraArgsBefore.push_back(V);
  else if (takeValue(A, "--stdin-filename", I, Argc, Argv, V)) {
    if (V.empty())
      usageError("--stdin-filename needs a path");
    O.StdinFilename = V;
  } else if (takeValue(A, "--catalog", I, Argc, Argv, V))
    O.Run.Catalogs.push_back(V);
  else if (takeValue(A, "--exclude", I, Argc, Argv, V)) {
    if (auto E = Excludes::create({V}); !E)
      usageError(llvm::toString(E.takeError()));
    O.Run.Exclude.push_back(V);
  } else if (takeValue(A, "-p", I, Argc, Argv, V))
    O.Run.BuildDir = V;
  else if (A.starts_with("-p") && A.size() > 2 && !A.starts_with("-p="))
    O.Run.BuildDir = A.substr(2).str();
  else if (takeValue(A, "-j", I, Argc, Argv, V))
    O.Run.Jobs = numberIn(V, 1024, "-j");
  else if (A.starts_with("-j") && A.size() > 2)
    O.Run.Jobs = numberIn(A.substr(2).str(), 1024, "-j");
  else
    return false;
  return true;
}

/// The options of the report: its format, filters and destinations.
bool parseReportOption(llvm::StringRef A, int &I, int Argc, char **Argv,
                       Options &O) {
  std::string V;
  if (takeValue(A, "--format", I, Argc, Argv, V)) {
    if (V != "text" && V != "json" && V != "sarif" && V != "github")
      usageError("unknown format '" + V +
                 "' (expected text, json, sarif, github)");
    O.Format = V;
  } else if (takeValue(A, "-o", I, Argc, Argv, V) ||
             takeValue(A, "--output", I, Argc, Argv, V))
    O.Output = V;
  else if (takeValue(A, "--baseline", I, Argc, Argv, V))
    O.Baseline = V;
  else if (takeValue(A, "--confirm", I, Argc, Argv, V))
    O.Confirm = V;
  else if (takeValue(A, "--write-baseline", I, Argc, Argv, V))
    O.WriteBaseline = V;
  else if (takeValue(A, "--export-fixes", I, Argc, Argv, V))
    O.ExportFixes = V;
  else if (takeValue(A, "--export-compile-db", I, Argc, Argv, V)) {
    if (V.empty())
      usageError("--export-compile-db needs a directory");
    O.ExportCompileDb = V;
  } else if (takeValue(A, "--print-clang-flags", I, Argc, Argv, V)) {
    if (V != "cuda" && V != "hip")
      usageError("--print-clang-flags takes 'cuda' or 'hip', not '" + V + "'");
    O.PrintClangFlags = V;
  } else if (takeValue(A, "--sarif-root", I, Argc, Argv, V))
    O.SarifRoot = V;
  else if (takeValue(A, "--warnings-as-errors", I, Argc, Argv, V))
    O.WarningsAsErrors = V;
  else if (takeValue(A, "--header-filter", I, Argc, Argv, V)) {
    O.HeaderFilter = V;
    O.HeaderFilterGiven = true;
  } else if (takeValue(A, "--line-filter", I, Argc, Argv, V))
    O.LineFilter = V;
  else if (takeValue(A, "--exit-code-file", I, Argc, Argv, V))
    O.ExitCodeFile = V;
  else
    return false;
  return true;
}

/// The options of `summarize` and `link`.
bool parseScaleOption(llvm::StringRef A, int &I, int Argc, char **Argv,
                      Options &O) {
  std::string V;
  if (takeValue(A, "--root", I, Argc, Argv, V)) {
    if (V.empty())
      usageError("--root needs a directory");
    O.Root = V;
  } else if (takeValue(A, "--roles-out", I, Argc, Argv, V)) {
    if (V.empty())
      usageError("--roles-out needs a file");
    O.RolesOut = V;
  } else if (takeValue(A, "--import-roles", I, Argc, Argv, V)) {
    if (V.empty())
      usageError("--import-roles needs a summary file (or @LIST)");
    O.ImportRoles.push_back(V);
  } else
    return false;
  return true;
}

} // namespace

[[noreturn]] void usageError(const std::string &Msg) {
  llvm::errs() << "capture-lint: error: " << Msg
               << " (see capture-lint --help)\n";
  std::exit(2);
}

/// [tool.capture-lint] of the nearest pyproject.toml (PyprojectConfig.h),
/// under what the command line says.
static void applyPyprojectConfig(Options &O) {
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  auto C = findPyprojectConfig(Cwd);
  if (!C)
    usageError(llvm::toString(C.takeError()));
  if (C->Path.empty())
    return;
  O.Run.Exclude.insert(O.Run.Exclude.end(), C->Exclude.begin(),
                       C->Exclude.end());
  for (const std::string &G : C->Exclude)
    if (auto E = Excludes::create({G}); !E)
      usageError(C->Path + ": exclude: " + llvm::toString(E.takeError()));
  O.Run.Catalogs.insert(O.Run.Catalogs.end(), C->Catalogs.begin(),
                        C->Catalogs.end());
  if (C->Checks && !O.Run.ChecksGiven) {
    O.Run.ChecksGlob = *C->Checks;
    O.Run.ChecksGiven = true;
  }
  if (C->MaxCallDepth && !O.MaxCallDepthGiven)
    O.Run.MaxCallDepth = *C->MaxCallDepth;
}

/// The input `-`: reads stdin as the Python file --stdin-filename names
/// (stdin.py by default), which then stands for `-` among the inputs.
static void readStdinInput(Options &O) {
  auto Dash = llvm::count(O.Run.Files, "-");
  if (Dash == 0) {
    if (!O.StdinFilename.empty())
      usageError("--stdin-filename given without '-' among the inputs");
    return;
  }
  if (Dash > 1)
    usageError("'-' (stdin) given more than once");
  std::string Name = O.StdinFilename.empty() ? "stdin.py" : O.StdinFilename;
  if (!llvm::StringRef(Name).ends_with(".py"))
    usageError("only Python is read from stdin: --stdin-filename '" + Name +
               "' does not end in .py (give C++ and CUDA files by name)");
  auto Text = llvm::MemoryBuffer::getSTDIN();
  if (!Text)
    usageError("cannot read stdin: " + Text.getError().message());
  O.Run.StdinPath = absolutePath(Name);
  O.Run.StdinText = (*Text)->getBuffer().str();
  std::replace(O.Run.Files.begin(), O.Run.Files.end(), std::string("-"),
               O.Run.StdinPath);
}

Options parseArgs(int Argc, char **Argv) {
  Options O;
  O.Run.Jobs = std::max(1u, std::thread::hardware_concurrency());
  int First = 1;
  if (Argc > 1 && (llvm::StringRef(Argv[1]) == "summarize" ||
                   llvm::StringRef(Argv[1]) == "link" ||
                   llvm::StringRef(Argv[1]) == "launch")) {
    O.Subcommand = Argv[1];
    First = 2;
  }
  for (int I = First; I < Argc; ++I) {
    std::string Spelled = doubleDashSpelling(Argv[I], LongOptions);
    llvm::StringRef A = Spelled;
    if (A == "--") {
      O.Run.HasExplicitFlags = true;
      O.Run.ExplicitFlags.assign(Argv + I + 1, Argv + Argc);
      break;
    }
    if (parseFlag(A, O) || parseRunOption(A, I, Argc, Argv, O) ||
        parseReportOption(A, I, Argc, Argv, O) ||
        parseScaleOption(A, I, Argc, Argv, O))
      continue;
    if (A.starts_with("-") && A != "-")
      usageError("unknown option '" + A.str() + "'");
    O.Run.Files.push_back(A.str());
  }
  if (!O.ConfigFile.empty() && !O.ConfigInline.empty())
    usageError("--config-file and --config both given; use one");
  readStdinInput(O);
  applyPyprojectConfig(O);
  return O;
}

} // namespace capture_lint
