//===- CaptureProbeMain.cpp - The capture-probe command -------------------===//
//
//   capture-probe run [options] -- PROGRAM [ARGS...]
//   capture-probe show REPORT.json
//
// `run` starts PROGRAM with the probe injected (CUDA: CUDA_INJECTION64_PATH
// names the CUPTI library; HIP: LD_PRELOAD names the interposer), waits for
// it, turns the event logs it left into a report (captures, calls, classes,
// call sites symbolized with addr2line) and writes it as JSON.
//
//===----------------------------------------------------------------------===//

#include "capture_probe/ApiCatalog.h"
#include "capture_probe/CaptureTracker.h"
#include "capture_probe/EventLog.h"
#include "capture_probe/Lifecycle.h"
#include "capture_probe/RankCompare.h"
#include "capture_probe/Report.h"
#include "capture_probe/RuntimeCalls.h"
#include "capture_probe/Strings.h"
#include "capture_probe/Symbolizer.h"
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace capture_probe;

namespace {

const char *Usage = R"(usage: capture-probe run [options] -- PROGRAM [ARGS...]
       capture-probe show REPORT.json
       capture-probe compare REPORT.json REPORT.json...

Runs a CUDA (or HIP) program with the capture probe injected and reports,
for every stream capture it makes: where it began and ended, its mode and
stream, every API call made while it was active with its result, the first
error, allocations, synchronisations, work that ran outside the graph, and
the graph's nodes by type; and what became of the graphs (instantiations,
launches, churn, graphs never launched, silent fallbacks, graph coverage).
Identical captures are reported once, with a count.

compare takes one report per rank of a multi-process run and reports the
first capture whose collective (NCCL) kernels differ between ranks: such
graphs hang at replay. Exit 1 if they differ, 0 if not.

run options:
  --report FILE       where to write the JSON report (default:
                      capture-probe-report.json)
  --fail-on CLASS     exit 1 if a call of this class was seen (repeatable, or
                      comma-separated): error, allocation, sync, query, eager,
                      uncaptured-work, invalidated, capture-failed,
                      never-launched, capture-churn, instantiate-per-launch,
                      silent-fallback, lifecycle (the four before),
                      freed-while-held, any
  --backend cuda|hip  cuda (default): injected by the CUDA driver; hip:
                      LD_PRELOAD interposer over libamdhip64
  --library PATH      the injection library (default: found beside this tool)
  --catalog PATH      an extra API catalog file or directory (repeatable)
  --no-symbolize      keep call sites as module+offset (and, without
                      CUPTI, the runtime's calls as driver calls)
  --with-cupti        (cuda) see the program's calls through CUPTI's
                      callbacks: also the runtime calls that reach no driver
                      function (cudaGetLastError: the sticky-error note), at
                      about 1.8x plain for capture-heavy programs
  --without-cupti     (cuda, the default) see them through wrappers of the
                      driver's entry points, never subscribing to CUPTI:
                      about 1.4x plain (docs/runtime-probe.md). Without
                      either, CAPTURE_PROBE_CALLS=cupti|wrappers in the
                      environment chooses
  --quiet             do not print the summary
  -h, --help          this help
  --version           print the version

Exit status: 2 if capture-probe itself failed (bad options, the program
could not be started, a log could not be read); 1 if a --fail-on class was
seen; otherwise the program's own status (128+N if killed by signal N).
)";

int fail(const std::string &Msg) {
  std::fprintf(stderr, "capture-probe: error: %s\n", Msg.c_str());
  return 2;
}

std::string selfDir() {
  char Buf[4096];
  ssize_t L = readlink("/proc/self/exe", Buf, sizeof Buf - 1);
  if (L <= 0)
    return ".";
  std::string P(Buf, size_t(L));
  return P.substr(0, P.rfind('/'));
}

std::string findLibrary(const std::string &Backend) {
  std::string Name =
      Backend == "hip" ? "libcapture_probe_hip.so" : "libcapture_probe_cuda.so";
  std::string Dir = selfDir();
  for (const std::string &Candidate :
       {Dir + "/" + Name, Dir + "/../" CAPTURE_PROBE_LIBDIR "/" + Name,
        Dir + "/../lib/" + Name})
    if (access(Candidate.c_str(), R_OK) == 0) {
      char Real[4096];
      return realpath(Candidate.c_str(), Real) ? Real : Candidate;
    }
  return "";
}

bool writeAtomically(const std::string &Path, const std::string &Text,
                     std::string &Error) {
  std::string Tmp = Path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream Out(Tmp, std::ios::binary | std::ios::trunc);
    if (!Out) {
      Error = "cannot write '" + Path + "': " + std::strerror(errno);
      return false;
    }
    Out << Text;
    if (!Out.flush()) {
      Error = "cannot write '" + Path + "'";
      std::remove(Tmp.c_str());
      return false;
    }
  }
  if (std::rename(Tmp.c_str(), Path.c_str()) != 0) {
    Error = "cannot write '" + Path + "': " + std::strerror(errno);
    std::remove(Tmp.c_str());
    return false;
  }
  return true;
}

void removeTree(const std::string &Dir) {
  if (DIR *D = opendir(Dir.c_str())) {
    while (dirent *E = readdir(D)) {
      std::string N = E->d_name;
      if (N != "." && N != "..")
        std::remove((Dir + "/" + N).c_str());
    }
    closedir(D);
  }
  rmdir(Dir.c_str());
}

struct RunOptions {
  std::string Report = "capture-probe-report.json";
  std::set<std::string> FailOn;
  std::string Backend = "cuda";
  std::string Library;
  std::vector<std::string> Catalogs;
  bool Symbolize = true, Quiet = false;
  /// How the CUDA backend sees the program's calls, CAPTURE_PROBE_CALLS in
  /// the program: "wrappers" (--without-cupti, the default: wrappers of the
  /// driver's entry points only) or "cupti" (--with-cupti: CUPTI's
  /// callbacks); empty until an option or the environment chooses.
  std::string Calls;
  std::vector<std::string> Program;
};

/// What the Python hook recorded of Inductor's generated modules (files
/// "*.inductor" beside the event logs).
InductorSources inductorSources(const std::string &LogDir) {
  InductorSources S;
  for (const std::string &Path : filesEndingWith(LogDir, ".inductor")) {
    std::ifstream In(Path);
    std::ostringstream Text;
    Text << In.rdbuf();
    S.addLines(Text.str());
  }
  return S;
}

/// Python programs: the start-up hook beside the injection library
/// (capture_probe_python/sitecustomize.py, which watches PyTorch's caching
/// allocator for graphs) first on PYTHONPATH.
void usePythonHook(const std::string &Library) {
  size_t Slash = Library.rfind('/');
  std::string Dir = (Slash == std::string::npos ? std::string(".")
                                                : Library.substr(0, Slash)) +
                    "/capture_probe_python";
  if (access((Dir + "/sitecustomize.py").c_str(), R_OK) != 0)
    return;
  const char *Old = getenv("PYTHONPATH");
  std::string Path = Dir + (Old && *Old ? std::string(":") + Old : "");
  setenv("PYTHONPATH", Path.c_str(), 1);
}

/// Starts the program; returns its wait status, or -1 with \p Error set.
int runProgram(const RunOptions &O, const std::string &LogDir,
               std::string &Error) {
  int Pipe[2];
  if (pipe2(Pipe, O_CLOEXEC) != 0) {
    Error = std::string("pipe: ") + std::strerror(errno);
    return -1;
  }
  pid_t Pid = fork();
  if (Pid < 0) {
    Error = std::string("fork: ") + std::strerror(errno);
    return -1;
  }
  if (Pid == 0) {
    close(Pipe[0]);
    setenv(LogPathVariable, (LogDir + "/events.%p.jsonl").c_str(), 1);
    if (O.Backend == "hip") {
      const char *Old = getenv("LD_PRELOAD");
      std::string Pre = O.Library + (Old && *Old ? std::string(":") + Old : "");
      setenv("LD_PRELOAD", Pre.c_str(), 1);
    } else {
      setenv("CUDA_INJECTION64_PATH", O.Library.c_str(), 1);
      setenv("CAPTURE_PROBE_CALLS", O.Calls.c_str(), 1);
      usePythonHook(O.Library);
    }
    std::vector<char *> Argv;
    for (const std::string &A : O.Program)
      Argv.push_back(const_cast<char *>(A.c_str()));
    Argv.push_back(nullptr);
    execvp(Argv[0], Argv.data());
    int E = errno;
    (void)!write(Pipe[1], &E, sizeof E);
    _exit(127);
  }
  close(Pipe[1]);
  // Like time(1): let the program see ^C; we stay to write the report.
  struct sigaction Ignore = {}, OldInt, OldQuit;
  Ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &Ignore, &OldInt);
  sigaction(SIGQUIT, &Ignore, &OldQuit);
  int ExecErr = 0;
  ssize_t N = read(Pipe[0], &ExecErr, sizeof ExecErr);
  close(Pipe[0]);
  int Status = 0;
  while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  sigaction(SIGINT, &OldInt, nullptr);
  sigaction(SIGQUIT, &OldQuit, nullptr);
  if (N == sizeof ExecErr) {
    Error = "cannot run '" + O.Program[0] + "': " + std::strerror(ExecErr);
    return -1;
  }
  return Status;
}

/// Resolves in \p S the stacks of the driver calls in \p Log that the CUDA
/// runtime made for the program (logs of the probe without CUPTI), and
/// learns from them the runtime calls they name (RuntimeCalls.h).
RuntimeCallNames learnRuntimeCalls(const std::string &Log, Symbolizer &S) {
  // Each distinct (place, stack) once: a loop makes the same call often.
  std::set<std::pair<uint64_t, std::vector<std::string>>> Stacks;
  std::vector<std::string> Frames;
  std::string Error;
  forEachEventInOrder(
      Log,
      [&](Event &&E) {
        if (!E.ByRuntime || E.Frames.empty())
          return;
        if (Stacks.emplace(E.Caller, E.Frames).second)
          Frames.insert(Frames.end(), E.Frames.begin(), E.Frames.end());
      },
      Error);
  RuntimeCallNames Names;
  if (Frames.empty())
    return Names;
  S.resolve(Frames);
  for (const auto &[Caller, Stack] : Stacks)
    Names.learn(S, Caller, Stack);
  return Names;
}

/// The captures of \p Logs into \p R. One log per process; each is tracked
/// on its own (sequence numbers and streams are per process), captures
/// renumbered across them. With \p Names, the runtime's driver calls are
/// named after the program's runtime calls first. A log that cannot be
/// read, or lines that are not events, lose only themselves: what went wrong
/// is returned, one line each.
std::vector<std::string> addLogs(const std::vector<std::string> &Logs,
                                 const ApiCatalog &Catalog, Symbolizer *Names,
                                 ProbeReport &R) {
  std::vector<std::string> Problems;
  unsigned NextId = 1;
  for (const std::string &Log : Logs) {
    RuntimeCallNames Learnt;
    if (Names)
      Learnt = learnRuntimeCalls(Log, *Names);
    // Streamed through the tracker: memory grows with the captures, not
    // with the events (bench/probe_reader.py).
    CaptureTracker Tracker(Catalog);
    SkippedLines Skipped;
    std::string Error;
    auto Consume = [&](Event &&E) {
      if (Names && E.ByRuntime)
        Learnt.name(*Names, E);
      Tracker.consume(E);
    };
    if (!forEachEventInOrder(Log, Consume, Error, &Skipped)) {
      Problems.push_back(Error);
      continue;
    }
    if (Skipped.Count)
      Problems.push_back(std::to_string(Skipped.Count) + " malformed line" +
                         (Skipped.Count == 1 ? "" : "s") +
                         " skipped, the first at " + Skipped.First);
    std::vector<CaptureRecord> Caps = Tracker.finish();
    Coverage Cover = Tracker.coverage();
    analyzeLifecycle(Caps, Cover);
    for (CaptureRecord &C : Caps)
      C.Id = C.LastId = NextId++;
    aggregateIdentical(Caps);
    for (CaptureRecord &C : Caps)
      R.Captures.push_back(std::move(C));
    R.Graphs.Known |= Cover.Known;
    R.Graphs.GraphLaunches += Cover.GraphLaunches;
    R.Graphs.GraphKernels += Cover.GraphKernels;
    R.Graphs.EagerKernels += Cover.EagerKernels;
  }
  return Problems;
}

/// Removes the logs, or, when reading them went wrong, keeps them and says
/// so (on stderr and in the report's note).
void keepLogsIf(const std::vector<std::string> &Problems,
                const std::string &LogDir, ProbeReport &R) {
  if (Problems.empty()) {
    removeTree(LogDir);
    return;
  }
  for (const std::string &P : Problems)
    std::fprintf(stderr, "capture-probe: warning: %s\n", P.c_str());
  std::fprintf(stderr,
               "capture-probe: the report leaves that out; the event logs "
               "are kept in %s\n",
               LogDir.c_str());
  R.Note += std::string(R.Note.empty() ? "" : "; ") + Problems.front() +
            (Problems.size() > 1
                 ? " (and " + std::to_string(Problems.size() - 1) + " more)"
                 : "") +
            "; the event logs are kept in " + LogDir;
}

/// The built-in catalog with the files of --catalog added; false, with
/// \p Error, when one cannot be read.
bool loadCatalog(const RunOptions &O, ApiCatalog &Catalog, std::string &Error) {
  Catalog = ApiCatalog::builtin();
  for (const std::string &C : O.Catalogs)
    if (!Catalog.addPath(C, Error))
      return false;
  return true;
}

/// A new directory for the event logs, under $TMPDIR (else /tmp).
bool makeLogDir(std::string &LogDir, std::string &Error) {
  const char *TmpRoot = getenv("TMPDIR");
  std::string Template = std::string(TmpRoot && *TmpRoot ? TmpRoot : "/tmp") +
                         "/capture-probe.XXXXXX";
  std::vector<char> Buf(Template.begin(), Template.end());
  Buf.push_back('\0');
  if (!mkdtemp(Buf.data())) {
    Error = "cannot create a temporary directory: " +
            std::string(std::strerror(errno));
    return false;
  }
  LogDir = Buf.data();
  return true;
}

/// How the program ended (wait status \p Status) into \p R; returns its
/// exit code, 128+N when killed by signal N.
int recordExit(int Status, ProbeReport &R) {
  int ProgramExit = 0;
  if (WIFEXITED(Status)) {
    ProgramExit = WEXITSTATUS(Status);
    R.ExitStatus = ProgramExit;
  } else if (WIFSIGNALED(Status)) {
    ProgramExit = 128 + WTERMSIG(Status);
    R.Note = std::string("killed by signal ") +
             std::to_string(WTERMSIG(Status)) + " (" +
             strsignal(WTERMSIG(Status)) + ")";
  }
  return ProgramExit;
}

/// The captures of the event logs in \p LogDir into \p R, call sites
/// symbolized unless --no-symbolize; removes the logs unless reading them
/// went wrong.
void analyzeLogs(const RunOptions &O, const ApiCatalog &Catalog,
                 const std::string &LogDir, ProbeReport &R) {
  std::vector<std::string> Logs = filesEndingWith(LogDir, ".jsonl");
  Symbolizer S;
  // Only the probe without CUPTI logs the runtime's driver calls to name:
  // with CUPTI, the logs are not read twice.
  bool WithoutCupti = O.Calls == "wrappers";
  std::vector<std::string> LogProblems =
      addLogs(Logs, Catalog, O.Symbolize && WithoutCupti ? &S : nullptr, R);
  InductorSources Generated = inductorSources(LogDir);
  keepLogsIf(LogProblems, LogDir, R); // removes LogDir unless kept
  if (Logs.empty()) {
    std::string Why = O.Backend == "hip"
                          ? "the program did not load libamdhip64"
                          : "the program did not initialise CUDA, or CUPTI "
                            "refused the injection library";
    R.Note += std::string(R.Note.empty() ? "" : "; ") + "no event log: " + Why;
  }
  if (O.Symbolize) {
    S.setInductorSources(std::move(Generated));
    S.symbolize(R);
  }
}

/// Writes report \p R where --report says and, unless --quiet, its summary
/// on stderr.
bool writeReport(const RunOptions &O, const ProbeReport &R,
                 std::string &Error) {
  // Symbolized names and paths are bytes: not UTF-8 ones become U+FFFD.
  if (!writeAtomically(
          O.Report,
          toJson(R).dump(2, ' ', false,
                         nlohmann::json::error_handler_t::replace) +
              "\n",
          Error))
    return false;
  if (!O.Quiet) {
    std::fprintf(stderr, "capture-probe: %s", summarize(R).c_str());
    if (!R.Note.empty())
      std::fprintf(stderr, "capture-probe: %s\n", R.Note.c_str());
    std::fprintf(stderr, "capture-probe: report written to %s\n",
                 O.Report.c_str());
  }
  return true;
}

/// Whether report \p R has a class that --fail-on names.
bool failsOn(const std::set<std::string> &FailOn, const ProbeReport &R) {
  std::set<std::string> Seen = R.allClasses();
  for (const std::string &K : FailOn) {
    bool Hit = K == "any" ? !Seen.empty() : Seen.count(K) > 0;
    if (K == "lifecycle")
      for (const std::string &L : lifecycleClasses())
        Hit |= Seen.count(L) > 0;
    if (Hit)
      return true;
  }
  return false;
}

int run(const RunOptions &O) {
  ApiCatalog Catalog;
  std::string Error, LogDir;
  if (!loadCatalog(O, Catalog, Error))
    return fail("--catalog: " + Error);
  if (!makeLogDir(LogDir, Error))
    return fail(Error);
  int Status = runProgram(O, LogDir, Error);
  if (Status < 0) {
    removeTree(LogDir);
    return fail(Error);
  }
  ProbeReport R;
  R.Backend = O.Backend;
  R.ProbeVersion = CAPTURE_PROBE_VERSION;
  R.Program = O.Program;
  int ProgramExit = recordExit(Status, R);
  analyzeLogs(O, Catalog, LogDir, R);
  if (!writeReport(O, R, Error))
    return fail(Error);
  return failsOn(O.FailOn, R) ? 1 : ProgramExit;
}

int show(const std::string &Path) {
  ProbeReport R;
  std::string Error;
  if (!readReport(Path, R, Error))
    return fail(Error);
  std::fputs(summarize(R).c_str(), stdout);
  if (!R.Note.empty())
    std::printf("note: %s\n", R.Note.c_str());
  return 0;
}

/// `compare REPORT.json REPORT.json...`: the ranks' collectives side by
/// side; 0 if they agree, 1 if not.
int compare(const std::vector<std::string> &Args) {
  if (Args.size() < 3)
    return fail("'compare' takes two or more reports, one per rank");
  std::vector<ProbeReport> Ranks(Args.size() - 1);
  for (size_t I = 1; I < Args.size(); ++I) {
    std::string Error;
    if (!readReport(Args[I], Ranks[I - 1], Error))
      return fail(Error);
  }
  std::string Text;
  bool Same = compareRanks(
      Ranks, std::vector<std::string>(Args.begin() + 1, Args.end()), Text);
  std::fputs(Text.c_str(), stdout);
  return Same ? 0 : 1;
}

/// The classes of --fail-on \p V (comma-separated) into \p O; false, with
/// \p Error, for one that is unknown.
bool addFailOn(const std::string &V, RunOptions &O, std::string &Error) {
  for (const std::string &K : split(V, ',')) {
    if (K != "any" && K != "lifecycle" && !knownClasses().count(K)) {
      Error = "--fail-on: unknown class '" + K +
              "' (error, allocation, sync, query, eager, "
              "uncaptured-work, invalidated, capture-failed, "
              "never-launched, capture-churn, instantiate-per-launch, "
              "silent-fallback, lifecycle, freed-while-held, any)";
      return false;
    }
    O.FailOn.insert(K);
  }
  return true;
}

/// Reads option Args[I] of `run` (and its value, I then past it) into
/// \p O; false, with \p Error, when it is unknown or lacks its value.
bool readOption(const std::vector<std::string> &Args, size_t &I, RunOptions &O,
                std::string &Error) {
  auto Value = [&](std::string &Out) {
    if (I + 1 >= Args.size())
      return false;
    Out = Args[++I];
    return true;
  };
  auto Bad = [&](const std::string &Why) {
    Error = Why;
    return false;
  };
  const std::string &A = Args[I];
  std::string V;
  if (A == "--report")
    return (Value(O.Report) && !O.Report.empty()) ||
           Bad("--report needs a file name");
  if (A == "--fail-on")
    return Value(V) ? addFailOn(V, O, Error) : Bad("--fail-on needs a class");
  if (A == "--backend")
    return (Value(O.Backend) && (O.Backend == "cuda" || O.Backend == "hip")) ||
           Bad("--backend must be 'cuda' or 'hip'");
  if (A == "--library")
    return Value(O.Library) || Bad("--library needs a path");
  if (A == "--catalog") {
    if (!Value(V))
      return Bad("--catalog needs a path");
    O.Catalogs.push_back(V);
    return true;
  }
  if (A == "--no-symbolize")
    O.Symbolize = false;
  else if (A == "--without-cupti" || A == "--with-cupti") {
    std::string Calls = A == "--with-cupti" ? "cupti" : "wrappers";
    if (!O.Calls.empty() && O.Calls != Calls)
      return Bad("--with-cupti and --without-cupti contradict each other");
    O.Calls = Calls;
  } else if (A == "--quiet")
    O.Quiet = true;
  else
    return Bad("unknown option '" + A + "' (see --help)");
  return true;
}

/// How the CUDA backend sees calls, where no option said: the environment's
/// CAPTURE_PROBE_CALLS (the GPU suites choose so), else without CUPTI.
bool chooseCalls(RunOptions &O, std::string &Error) {
  if (!O.Calls.empty())
    return true;
  const char *Env = getenv("CAPTURE_PROBE_CALLS");
  std::string Calls = Env && *Env ? Env : "wrappers";
  if (Calls != "wrappers" && Calls != "cupti") {
    Error = "CAPTURE_PROBE_CALLS='" + Calls +
            "' in the environment: expected cupti or wrappers";
    return false;
  }
  O.Calls = Calls;
  return true;
}

/// `run`'s options (Args[1...]) into \p O, and the program after them
/// (after "--", or from the first argument that is no option).
bool parseRunOptions(const std::vector<std::string> &Args, RunOptions &O,
                     std::string &Error) {
  size_t I = 1;
  for (; I < Args.size(); ++I) {
    const std::string &A = Args[I];
    if (A == "--") {
      ++I;
      break;
    }
    if (A.empty() || A[0] != '-')
      break; // the program, without "--"
    if (!readOption(Args, I, O, Error))
      return false;
  }
  O.Program.assign(Args.begin() + long(I), Args.end());
  if (O.Backend != "cuda") {
    if (!O.Calls.empty()) {
      Error = "--with-cupti and --without-cupti are for the cuda backend (the "
              "hip backend uses no CUPTI)";
      return false;
    }
    return true;
  }
  return chooseCalls(O, Error);
}

/// The probe library: --library's, else the one beside this tool; made
/// absolute. False, with \p Error, when there is none to read.
bool locateLibrary(RunOptions &O, std::string &Error) {
  if (O.Library.empty())
    O.Library = findLibrary(O.Backend);
  if (O.Library.empty()) {
    Error = "cannot find the " + O.Backend +
            " probe library beside capture-probe; pass --library";
    return false;
  }
  if (access(O.Library.c_str(), R_OK) != 0) {
    Error = "cannot read the probe library '" + O.Library + "'";
    return false;
  }
  if (O.Library[0] != '/') {
    char Real[4096];
    if (realpath(O.Library.c_str(), Real))
      O.Library = Real;
  }
  return true;
}

} // namespace

int main(int Argc, char **Argv) {
  std::vector<std::string> Args(Argv + 1, Argv + Argc);
  if (Args.empty())
    return fail("no command given (run 'capture-probe --help')");
  if (Args[0] == "-h" || Args[0] == "--help") {
    std::fputs(Usage, stdout);
    return 0;
  }
  if (Args[0] == "--version") {
    std::printf("capture-probe %s\n", CAPTURE_PROBE_VERSION);
    return 0;
  }
  if (Args[0] == "show") {
    if (Args.size() != 2)
      return fail("'show' takes one report file");
    return show(Args[1]);
  }
  if (Args[0] == "compare")
    return compare(Args);
  if (Args[0] != "run")
    return fail("unknown command '" + Args[0] +
                "' (expected 'run', 'show' or 'compare'; see --help)");
  RunOptions O;
  std::string Error;
  if (!parseRunOptions(Args, O, Error))
    return fail(Error);
  if (O.Program.empty())
    return fail("no program to run (capture-probe run [options] -- PROGRAM)");
  if (!locateLibrary(O, Error))
    return fail(Error);
  return run(O);
}
