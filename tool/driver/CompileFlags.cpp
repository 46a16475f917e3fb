//===- CompileFlags.cpp - Compile commands clang can parse ----------------===//

#include "CompileFlags.h"
#include "Version.h"
#include "capture_lint/BoundedRead.h"

#include "clang/Driver/Driver.h"
#include "clang/Driver/Options.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/StringSaver.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <mutex>

namespace capture_lint {

bool isNvcc(llvm::StringRef Compiler) {
  llvm::StringRef Base = llvm::sys::path::filename(Compiler);
  return Base == "nvcc" || Base.starts_with("nvcc-") || Base == "nvcc.exe";
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

std::string detectCudaPath() {
  for (const char *Var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *V = std::getenv(Var);
        V && *V && llvm::sys::fs::is_directory(V))
      return V;
  if (auto Nvcc = llvm::sys::findProgramByName("nvcc")) {
    llvm::SmallString<256> Real;
    if (!llvm::sys::fs::real_path(*Nvcc, Real)) {
      llvm::StringRef Bin = llvm::sys::path::parent_path(Real);
      return llvm::sys::path::parent_path(Bin).str();
    }
  }
  if (llvm::sys::fs::is_directory("/usr/local/cuda/include"))
    return "/usr/local/cuda";
  return "";
}

bool hasHeaderExtension(llvm::StringRef File) {
  return llvm::is_contained(
      {".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".inc", ".tcc", ""},
      llvm::sys::path::extension(File));
}

SourceLanguage languageOfFile(llvm::StringRef File) {
  llvm::StringRef Ext = llvm::sys::path::extension(File);
  if (Ext == ".cu" || Ext == ".cuh")
    return SourceLanguage::Cuda;
  if (Ext == ".hip")
    return SourceLanguage::Hip;
  if (Ext == ".cpp" || Ext == ".cc" || Ext == ".cxx" || Ext == ".c++" ||
      Ext == ".C" || Ext == ".h" || Ext == ".hpp" || Ext == ".hh" ||
      Ext == ".hxx")
    return SourceLanguage::Cxx;
  return SourceLanguage::Unknown;
}

/// Flags every command gets: clang's resource directory (the tool does not
/// live next to clang), and for CUDA the compat headers and host-only
/// parsing.
/// CUDA_VERSION (12060 for 12.6) from the toolkit's cuda.h, memoized.
static std::optional<int> toolkitVersionAt(const std::string &CudaPath) {
  static std::mutex Lock; // commands are built on worker threads too
  static std::map<std::string, std::optional<int>> Known;
  std::lock_guard<std::mutex> Hold(Lock);
  auto [It, New] = Known.try_emplace(CudaPath, std::nullopt);
  if (!New)
    return It->second;
  std::string Header = CudaPath + "/include/cuda.h";
  if (!llvm::sys::fs::is_regular_file(Header))
    return std::nullopt;
  std::ifstream In(Header);
  std::string Line;
  for (int N = 0; N < 4000 && std::getline(In, Line); ++N) {
    llvm::StringRef L = llvm::StringRef(Line).trim();
    if (!L.consume_front("#define CUDA_VERSION"))
      continue;
    int Version = 0;
    if (!L.trim().getAsInteger(10, Version) && Version > 0)
      It->second = Version;
    break;
  }
  return It->second;
}

/// nvcc defines __CUDACC_VER_MAJOR__/MINOR/BUILD from its toolkit, and code
/// gates features on them (`#if __CUDACC_VER_MAJOR__ >= 12`); clang does
/// not. Defines them from the toolkit's cuda.h unless the flags do.
static void addNvccVersion(std::vector<std::string> &Args,
                           const std::vector<std::string> &UserFlags,
                           const std::string &DefaultCudaPath) {
  std::string CudaPath = DefaultCudaPath;
  for (const std::string &F : UserFlags) {
    llvm::StringRef Flag(F);
    if (Flag == "-nocudainc" || Flag.contains("__CUDACC_VER_MAJOR__"))
      return;
    if (Flag.consume_front("--cuda-path="))
      CudaPath = Flag.str();
  }
  auto Version = CudaPath.empty() ? std::nullopt : toolkitVersionAt(CudaPath);
  if (!Version)
    return;
  Args.push_back("-D__CUDACC_VER_MAJOR__=" + std::to_string(*Version / 1000));
  Args.push_back("-D__CUDACC_VER_MINOR__=" +
                 std::to_string(*Version % 1000 / 10));
  Args.push_back("-D__CUDACC_VER_BUILD__=0");
}

static void addEssentials(std::vector<std::string> &Args, SourceLanguage Lang,
                          const ToolPaths &Paths, bool HasCudaPath,
                          const std::vector<std::string> &UserFlags) {
  if (!Paths.ResourceDir.empty())
    Args.push_back("-resource-dir=" + Paths.ResourceDir);
  if (Lang == SourceLanguage::Cuda) {
    Args.push_back("--cuda-host-only");
    Args.push_back("-Wno-unknown-cuda-version");
    if (!HasCudaPath && !Paths.CudaPath.empty())
      Args.push_back("--cuda-path=" + Paths.CudaPath);
    addNvccVersion(Args, UserFlags, Paths.CudaPath);
    if (!Paths.CompatDir.empty()) {
      // After the real include paths: only fills in headers CUDA 13 removed.
      Args.push_back("-idirafter");
      Args.push_back(Paths.CompatDir);
    }
    if (!Paths.CudaPath.empty()) {
      llvm::SmallString<256> Cccl(Paths.CudaPath);
      llvm::sys::path::append(Cccl, "include", "cccl");
      if (llvm::sys::fs::is_directory(Cccl)) {
        Args.push_back("-idirafter");
        Args.push_back(std::string(Cccl));
      }
    }
  } else if (Lang == SourceLanguage::Hip) {
    Args.push_back("--offload-host-only");
  }
  Args.push_back("-Wno-unused-command-line-argument");
}

std::optional<std::vector<std::string>> defaultCommand(llvm::StringRef File,
                                                       const ToolPaths &Paths) {
  SourceLanguage Lang = languageOfFile(File);
  std::vector<std::string> Args = {"clang++"};
  switch (Lang) {
  case SourceLanguage::Cuda:
    Args.insert(Args.end(), {"-x", "cuda", "-std=c++17"});
    break;
  case SourceLanguage::Hip:
    Args.insert(Args.end(), {"-x", "hip", "-std=c++17"});
    break;
  case SourceLanguage::Cxx:
    Args.insert(Args.end(), {"-x", "c++", "-std=c++17"});
    if (!Paths.CudaPath.empty()) {
      Args.push_back("-isystem");
      Args.push_back(Paths.CudaPath + "/include");
    }
    break;
  case SourceLanguage::Unknown:
    return std::nullopt;
  }
  addEssentials(Args, Lang, Paths, false, {});
  Args.push_back(File.str());
  return Args;
}

std::vector<std::string> addedFlags(SourceLanguage Lang,
                                    const ToolPaths &Paths) {
  ToolPaths WithoutResourceDir = Paths;
  WithoutResourceDir.ResourceDir.clear();
  std::vector<std::string> Args;
  addEssentials(Args, Lang, WithoutResourceDir, false, {});
  return Args;
}

std::vector<std::string> explicitCommand(const std::vector<std::string> &Flags,
                                         llvm::StringRef File,
                                         const ToolPaths &Paths) {
  std::vector<std::string> Args = {"clang++"};
  Args.insert(Args.end(), Flags.begin(), Flags.end());
  SourceLanguage Lang = languageOfFile(File);
  bool HasCudaPath = false;
  for (size_t I = 0; I < Flags.size(); ++I) {
    llvm::StringRef F = Flags[I];
    if (F == "cuda" && I > 0 && Flags[I - 1] == "-x")
      Lang = SourceLanguage::Cuda;
    if (F == "hip" && I > 0 && Flags[I - 1] == "-x")
      Lang = SourceLanguage::Hip;
    if (F.starts_with("--cuda-path") || F == "-nocudainc")
      HasCudaPath = true;
  }
  addEssentials(Args, Lang, Paths, HasCudaPath, Flags);
  Args.push_back(File.str());
  return Args;
}

/// The toolkit an nvcc at an absolute path belongs to: the directory above
/// its bin/, followed through symlinks, when that holds include/cuda.h. A
/// wrapper such as /usr/local/bin/nvcc (a script exec'ing the real one) has
/// no toolkit there, and the default CUDA path applies instead.
static std::optional<std::string> toolkitOfNvcc(llvm::StringRef Compiler) {
  if (!llvm::sys::path::is_absolute(Compiler))
    return std::nullopt;
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Compiler, Real))
    Real = Compiler;
  for (llvm::StringRef Nvcc : {Compiler, llvm::StringRef(Real)}) {
    llvm::StringRef Root =
        llvm::sys::path::parent_path(llvm::sys::path::parent_path(Nvcc));
    if (llvm::sys::fs::exists(Root + "/include/cuda.h"))
      return Root.str();
  }
  return std::nullopt;
}

namespace {

/// nvcc flags with no clang meaning for host-side analysis. Separate-value
/// forms take the next argument too.
const llvm::StringSet<> NvccDropped = {"-forward-unknown-to-host-compiler",
                                       "--forward-unknown-to-host-compiler",
                                       "--expt-relaxed-constexpr",
                                       "-expt-relaxed-constexpr",
                                       "--expt-extended-lambda",
                                       "-expt-extended-lambda",
                                       "--extended-lambda",
                                       "-extended-lambda",
                                       "-dc",
                                       "-dw",
                                       "--device-c",
                                       "--device-w",
                                       "--use_fast_math",
                                       "-use_fast_math",
                                       "-lineinfo",
                                       "--generate-line-info",
                                       "-G",
                                       "--device-debug",
                                       "-Wno-deprecated-gpu-targets",
                                       "--keep",
                                       "-keep",
                                       "-res-usage",
                                       "--resource-usage",
                                       "-src-in-ptx",
                                       "--source-in-ptx",
                                       "--restrict",
                                       "-restrict",
                                       "--allow-unsupported-compiler",
                                       "-allow-unsupported-compiler",
                                       "--no-host-device-initializer-list",
                                       "--no-host-device-move-forward",
                                       "-Werror",
                                       "-cuda",
                                       "--cuda",
                                       "-ptx",
                                       "--ptx",
                                       "-cubin",
                                       "--cubin",
                                       "-fatbin",
                                       "--fatbin",
                                       "--display-error-number",
                                       "-err-no",
                                       "--no-display-error-number",
                                       "-no-err-no",
                                       "-MD",
                                       "-MMD",
                                       "-MP",
                                       "-static-global-template-stub=true",
                                       "-static-global-template-stub=false"};
const llvm::StringSet<> NvccDroppedWithValue = {"--generate-code",
                                                "-gencode",
                                                "-arch",
                                                "--gpu-architecture",
                                                "-code",
                                                "--gpu-code",
                                                "-ccbin",
                                                "--compiler-bindir",
                                                "--diag-suppress",
                                                "-diag-suppress",
                                                "--diag-warn",
                                                "-diag-warn",
                                                "--diag-error",
                                                "-diag-error",
                                                "-Xcudafe",
                                                "-Xptxas",
                                                "--ptxas-options",
                                                "-Xnvlink",
                                                "--nvlink-options",
                                                "-Xarchive",
                                                "--archive-options",
                                                "-maxrregcount",
                                                "--maxrregcount",
                                                "-t",
                                                "--threads",
                                                "--split-compile",
                                                "-split-compile",
                                                "-time",
                                                "--time",
                                                "-cudart",
                                                "--cudart",
                                                "-cudadevrt",
                                                "--cudadevrt",
                                                "-rdc",
                                                "--relocatable-device-code",
                                                "-MF",
                                                "-MT",
                                                "-MQ",
                                                "-ftz",
                                                "--ftz",
                                                "-prec-div",
                                                "--prec-div",
                                                "-prec-sqrt",
                                                "--prec-sqrt",
                                                "-fmad",
                                                "--fmad",
                                                "-Xlinker",
                                                "--linker-options",
                                                "-Werror",
                                                "-odir",
                                                "--output-directory",
                                                "-keep-dir",
                                                "--keep-dir",
                                                "-default-stream",
                                                "--default-stream",
                                                "-optf",
                                                "--options-file",
                                                "-Xcompiler",
                                                "--compiler-options",
                                                "-std",
                                                "--std",
                                                "-x",
                                                "--x",
                                                "--include-path",
                                                "--system-include",
                                                "--define-macro",
                                                "--undefine-macro",
                                                "--pre-include"};

/// Splits a flag into name and "=value" when the name is one of \p Set.
bool splitJoined(llvm::StringRef Arg, const llvm::StringSet<> &Set,
                 llvm::StringRef &Name, llvm::StringRef &Value) {
  size_t Eq = Arg.find('=');
  if (Eq == llvm::StringRef::npos)
    return false;
  Name = Arg.substr(0, Eq);
  Value = Arg.substr(Eq + 1);
  return Set.contains(Name);
}

/// Reads an argument file (`@file`, nvcc's --options-file) relative to
/// \p Directory and splits it as a shell would (GNU rules). Not a FIFO or a
/// device (a read would block or never end).
llvm::Expected<std::vector<std::string>>
readArgumentFile(llvm::StringRef Path, llvm::StringRef Directory) {
  llvm::SmallString<256> Full(Path);
  if (!llvm::sys::path::is_absolute(Full) && !Directory.empty()) {
    Full = Directory;
    llvm::sys::path::append(Full, Path);
  }
  auto Text = readRegularFile(std::string(Full), 16u << 20);
  if (!Text)
    return Text.takeError();
  llvm::BumpPtrAllocator Alloc;
  llvm::StringSaver Saver(Alloc);
  llvm::SmallVector<const char *, 32> Tokens;
  llvm::cl::TokenizeGNUCommandLine(*Text, Saver, Tokens);
  return std::vector<std::string>(Tokens.begin(), Tokens.end());
}

/// Limits on argument files that name each other (a cycle, or a fan-out
/// that would expand exponentially).
constexpr unsigned MaxArgumentFileDepth = 8;
constexpr unsigned MaxArgumentFiles = 64;

/// Replaces each `@file` argument (a response file, as CMake's Makefile
/// generator writes for include paths) by the arguments in it, recursively.
class ResponseFileExpander {
public:
  ResponseFileExpander(llvm::StringRef Directory, TranslatedCommand &Result)
      : Directory(Directory), Result(Result) {}

  std::vector<std::string> run(const std::vector<std::string> &Args,
                               unsigned Depth = 0) {
    std::vector<std::string> Out;
    for (const std::string &A : Args) {
      if (A.size() < 2 || A[0] != '@') {
        Out.push_back(A);
        continue;
      }
      std::string Path = A.substr(1);
      if (Depth >= MaxArgumentFileDepth || ++Read > MaxArgumentFiles) {
        Result.Warnings.push_back("response file '" + Path +
                                  "' nested too deeply or too many response "
                                  "files; it is ignored");
        continue;
      }
      auto Inner = readArgumentFile(Path, Directory);
      if (!Inner) {
        std::string Why = llvm::toString(Inner.takeError());
        Result.Warnings.push_back("cannot use response file: " + Why);
        Result.UnreadableArgumentFiles.push_back(Why);
        continue;
      }
      std::vector<std::string> Expanded = run(*Inner, Depth + 1);
      Out.insert(Out.end(), Expanded.begin(), Expanded.end());
    }
    return Out;
  }

private:
  llvm::StringRef Directory;
  TranslatedCommand &Result;
  unsigned Read = 0;
};

class NvccTranslator {
public:
  NvccTranslator(llvm::StringRef Directory, TranslatedCommand &Result)
      : Directory(Directory), Out(Result.Args), Warnings(Result.Warnings),
        Unreadable(Result.UnreadableArgumentFiles) {}

  void run(const std::vector<std::string> &Args, unsigned Depth) {
    for (size_t I = 0; I < Args.size(); ++I) {
      llvm::StringRef A = Args[I];
      auto Next = [&]() -> std::optional<std::string> {
        if (I + 1 < Args.size())
          return Args[++I];
        Warnings.push_back("nvcc flag '" + A.str() + "' is missing its value");
        return std::nullopt;
      };
      llvm::StringRef Name = A, Value;
      bool Joined = splitJoined(A, NvccDroppedWithValue, Name, Value);
      if (!Joined && NvccDroppedWithValue.contains(A)) {
        auto V = Next();
        if (!V)
          continue;
        handleValued(A, *V, Depth);
        continue;
      }
      if (Joined) {
        handleValued(Name, Value.str(), Depth);
        continue;
      }
      if (NvccDropped.contains(A) || A.starts_with("-rdc=") ||
          A.starts_with("-arch=") || A.starts_with("-Werror=") ||
          A.starts_with("-Xcudafe=") || A.starts_with("--Werror="))
        continue;
      Out.push_back(A.str());
    }
  }

private:
  void handleValued(llvm::StringRef Name, const std::string &Value,
                    unsigned Depth) {
    if (Name == "-Xcompiler" || Name == "--compiler-options") {
      llvm::SmallVector<llvm::StringRef, 8> Parts;
      llvm::StringRef(Value).split(Parts, ',', -1, false);
      for (llvm::StringRef P : Parts)
        Out.push_back(P.trim().str());
      return;
    }
    if (Name == "-std" || Name == "--std") {
      Out.push_back("-std=" + Value);
      return;
    }
    if (Name == "-x" || Name == "--x") {
      Out.push_back("-x");
      Out.push_back(Value == "cu" ? "cuda" : Value);
      return;
    }
    if (Name == "-default-stream" || Name == "--default-stream") {
      if (Value == "per-thread" || Value == "legacy")
        Out.push_back("-fgpu-default-stream=" + Value);
      return;
    }
    if (Name == "--include-path") {
      Out.push_back("-I" + Value);
      return;
    }
    if (Name == "--system-include") {
      Out.push_back("-isystem");
      Out.push_back(Value);
      return;
    }
    if (Name == "--define-macro") {
      Out.push_back("-D" + Value);
      return;
    }
    if (Name == "--undefine-macro") {
      Out.push_back("-U" + Value);
      return;
    }
    if (Name == "--pre-include") {
      Out.push_back("-include");
      Out.push_back(Value);
      return;
    }
    if (Name == "-optf" || Name == "--options-file") {
      expandOptionsFile(Value, Depth);
      return;
    }
    // Everything else in NvccDroppedWithValue is dropped.
  }

  void expandOptionsFile(const std::string &Path, unsigned Depth) {
    if (Depth > MaxArgumentFileDepth) {
      Warnings.push_back("--options-file nesting too deep at '" + Path + "'");
      return;
    }
    // Files that name each other several times would expand exponentially.
    if (++OptionsFilesRead > MaxArgumentFiles) {
      Warnings.push_back("more than " + std::to_string(MaxArgumentFiles) +
                         " --options-file expansions; '" + Path +
                         "' and the rest are ignored");
      return;
    }
    auto Args = readArgumentFile(Path, Directory);
    if (!Args) {
      std::string Why = llvm::toString(Args.takeError());
      Warnings.push_back("cannot use nvcc options file: " + Why);
      Unreadable.push_back(Why);
      return;
    }
    run(*Args, Depth + 1);
  }

  unsigned OptionsFilesRead = 0;
  llvm::StringRef Directory;
  std::vector<std::string> &Out;
  std::vector<std::string> &Warnings;
  std::vector<std::string> &Unreadable;
};

/// A C compiler driver: gcc, cc, clang, with a target prefix or a version
/// suffix (x86_64-linux-gnu-gcc-12, clang-19). Its commands stay C.
bool isCDriver(llvm::StringRef Compiler) {
  static const llvm::Regex C(
      "^([A-Za-z0-9_.]+-)*(gcc|cc|clang)(-[0-9.]+)?(\\.exe)?$");
  return C.match(llvm::sys::path::filename(Compiler));
}

/// Drops the flags clang's driver does not know, with a warning for each.
void dropUnknownFlags(std::vector<std::string> &Args, llvm::StringRef Origin,
                      std::vector<std::string> &Warnings) {
  const llvm::opt::OptTable &Table = clang::driver::getDriverOptTable();
  std::vector<const char *> Argv;
  for (size_t I = 1; I < Args.size(); ++I)
    Argv.push_back(Args[I].c_str());
  unsigned MissingIndex = 0, MissingCount = 0;
  llvm::opt::InputArgList Parsed = Table.ParseArgs(
      Argv, MissingIndex, MissingCount,
      llvm::opt::Visibility(clang::driver::options::ClangOption));
  llvm::StringSet<> Unknown;
  for (const llvm::opt::Arg *A :
       Parsed.filtered(clang::driver::options::OPT_UNKNOWN))
    Unknown.insert(A->getAsString(Parsed));
  if (Unknown.empty())
    return;
  std::vector<std::string> Kept = {Args.front()};
  for (size_t I = 1; I < Args.size(); ++I) {
    if (Unknown.contains(Args[I])) {
      Warnings.push_back("dropping " + Origin.str() + " flag '" + Args[I] +
                         "' that clang does not understand");
      continue;
    }
    Kept.push_back(Args[I]);
  }
  Args = std::move(Kept);
}

} // namespace

TranslatedCommand translateCommand(const std::vector<std::string> &Command,
                                   llvm::StringRef File,
                                   llvm::StringRef Directory,
                                   const ToolPaths &Paths) {
  TranslatedCommand Result;
  if (Command.empty())
    return Result;
  llvm::StringRef Compiler = Command.front();
  std::vector<std::string> Rest =
      ResponseFileExpander(Directory, Result)
          .run(std::vector<std::string>(Command.begin() + 1, Command.end()));
  std::vector<std::string> &Out = Result.Args;
  Out.push_back(isCDriver(Compiler) ? "clang" : "clang++");
  bool FromNvcc = isNvcc(Compiler);
  if (FromNvcc)
    NvccTranslator(Directory, Result).run(Rest, 0);
  else
    Out.insert(Out.end(), Rest.begin(), Rest.end());

  SourceLanguage Lang = languageOfFile(File);
  bool HasCudaPath = false;
  for (size_t I = 1; I < Out.size(); ++I) {
    if (Out[I] == "-x" && I + 1 < Out.size()) {
      if (Out[I + 1] == "cuda")
        Lang = SourceLanguage::Cuda;
      else if (Out[I + 1] == "hip")
        Lang = SourceLanguage::Hip;
    }
    if (llvm::StringRef(Out[I]).starts_with("--cuda-path"))
      HasCudaPath = true;
  }
  // Added options go before a `--` that ends them (an entry clangd-style
  // interpolation made for a header ends `-- FILE`), else at the end.
  auto OptionsEnd = [&] { return std::find(Out.begin() + 1, Out.end(), "--"); };
  // nvcc compiles .cpp files as C++ unless told `-x cu`; its CUDA path is
  // the one it was installed with.
  if (FromNvcc && !HasCudaPath) {
    if (auto Root = toolkitOfNvcc(Compiler)) {
      Out.insert(OptionsEnd(), "--cuda-path=" + *Root);
      HasCudaPath = true;
    }
  }
  dropUnknownFlags(Out, FromNvcc ? "nvcc" : llvm::sys::path::filename(Compiler),
                   Result.Warnings);
  std::vector<std::string> Extra;
  addEssentials(Extra, Lang, Paths, HasCudaPath, Out);
  Out.insert(OptionsEnd(), Extra.begin(), Extra.end());
  return Result;
}

} // namespace capture_lint
