//===- Launch.cpp - capture-lint launch, a compiler launcher --------------===//
//
//   capture-lint launch [--root DIR] [--import-roles S]... -- COMPILER ARGS
//
// For CMake's CMAKE_<LANG>_COMPILER_LAUNCHER (and any build that prefixes
// its compile commands): runs the compile command as given, and when it
// compiled one C++/CUDA/HIP source to an object, writes that source's
// summary beside the object (OBJECT.capture-lint.sum), with the command's
// own flags translated as a compile database's are. The build's own
// parallelism (and a remote-execution wrapper around the same command)
// thus produces the summaries; `capture-lint link BUILD_DIR` reports.
//
// The compiler's exit status is the launcher's: a summary that cannot be
// written is a warning, never a failed build; the link step, given the
// summaries it expects, says which one is missing.
//
//===----------------------------------------------------------------------===//

#include "CompileFlags.h"
#include "Delivery.h"
#include "Runner.h"
#include "Subcommands.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

namespace capture_lint {

namespace {

struct CompileStep {
  std::string Source, Object;
};

/// The options of gcc, clang, nvcc and hipcc whose value is the next
/// argument and may name a file that is not the source.
const llvm::StringSet<> TakesValue = {"-o",
                                      "-MF",
                                      "-MT",
                                      "-MQ",
                                      "-include",
                                      "-imacros",
                                      "-I",
                                      "-isystem",
                                      "-iquote",
                                      "-idirafter",
                                      "-x",
                                      "-D",
                                      "-U",
                                      "-Xclang",
                                      "-Xcompiler",
                                      "-Xlinker",
                                      "-ccbin",
                                      "-gencode",
                                      "-arch",
                                      "-code",
                                      "--options-file",
                                      "-odir",
                                      "--output-file",
                                      "--compiler-bindir",
                                      "-target",
                                      "--target",
                                      "-include-pch",
                                      "-Xarch_device"};

/// The one source \p Args compile to an object (`-c`), and the object; none
/// for a command that links, preprocesses, or compiles several sources.
std::optional<CompileStep> compileStep(const std::vector<std::string> &Args) {
  bool Compiles = false;
  std::vector<std::string> Sources;
  CompileStep Step;
  for (size_t I = 1; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    if (A == "-c" || A == "--compile")
      Compiles = true;
    else if ((A == "-o" || A == "--output-file") && I + 1 < Args.size())
      Step.Object = Args[I + 1];
    else if (A.starts_with("--output-file="))
      Step.Object = A.drop_front(strlen("--output-file=")).str();
    else if (A.starts_with("-o") && A.size() > 2 && !A.starts_with("-odir"))
      Step.Object = A.drop_front(2).str();
    if (TakesValue.contains(A)) {
      ++I;
      continue;
    }
    if (!A.starts_with("-") && languageOfFile(A) != SourceLanguage::Unknown &&
        !hasHeaderExtension(A))
      Sources.push_back(A.str());
  }
  if (!Compiles || Sources.size() != 1)
    return std::nullopt;
  Step.Source = Sources.front();
  if (Step.Object.empty()) // the compiler's default: STEM.o here
    Step.Object = llvm::sys::path::stem(Step.Source).str() + ".o";
  return Step;
}

/// Runs \p Args (the compiler first) with this process's streams; its exit
/// status, or 127 when it cannot be started (said).
int runCompiler(const std::vector<std::string> &Args) {
  std::string Program = Args.front();
  if (!llvm::StringRef(Program).contains('/')) {
    auto Found = llvm::sys::findProgramByName(Program);
    if (!Found) {
      llvm::errs() << "capture-lint: error: launch: the compiler '" << Program
                   << "' is not on PATH\n";
      return 127;
    }
    Program = *Found;
  }
  std::vector<llvm::StringRef> Argv(Args.begin(), Args.end());
  std::string Error;
  int Code =
      llvm::sys::ExecuteAndWait(Program, Argv, std::nullopt, {}, 0, 0, &Error);
  if (Code < 0) {
    llvm::errs() << "capture-lint: error: launch: cannot run '" << Program
                 << "': " << Error << "\n";
    return 127;
  }
  return Code;
}

/// Summarizes the step's source with the build's command; false (after a
/// warning saying why) when no summary was written.
bool summarizeStep(Options &O, const CompileStep &Step,
                   const std::vector<std::string> &Command) {
  std::string Summary = Step.Object + ".capture-lint.sum";
  auto Warn = [&](const std::string &Why) {
    llvm::errs() << "capture-lint: warning: launch: no summary of '"
                 << Step.Source << "' (" << Summary << "): " << Why << "\n";
    return false;
  };
  std::vector<UnitResult> RoleSources;
  if (llvm::Error E = prepareSummary(O, RoleSources))
    return Warn(llvm::toString(std::move(E)));
  O.Run.Files = {Step.Source};
  O.Run.BuildCommand = Command;
  O.Run.HasExplicitFlags = false;
  O.Run.ExplicitFlags.clear();
  Report R;
  std::optional<SummaryFileContents> S = summarizeFile(O.Run, RoleSources, R);
  if (!S)
    return Warn(R.Errors.empty() ? "it could not be analysed"
                                 : R.Errors.front().Message);
  if (!writeSummary(O, *S, Summary))
    return Warn("it could not be written");
  return true;
}

} // namespace

int runLaunch(Options &O) {
  if (!O.Run.HasExplicitFlags || O.Run.ExplicitFlags.empty())
    usageError("launch needs the compile command after -- "
               "(CMAKE_CUDA_COMPILER_LAUNCHER=\"capture-lint;launch;--\")");
  if (!O.Run.Files.empty() || !O.Run.BuildDir.empty() || !O.Output.empty())
    usageError("launch takes no FILE, -p or -o: the compile command after "
               "-- names the source and the object");
  std::vector<std::string> Command = O.Run.ExplicitFlags;
  int Code = runCompiler(Command);
  if (Code != 0)
    return Code;
  if (std::optional<CompileStep> Step = compileStep(Command))
    summarizeStep(O, *Step, Command);
  return 0;
}

} // namespace capture_lint
