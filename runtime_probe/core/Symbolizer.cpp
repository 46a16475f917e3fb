//===- Symbolizer.cpp - addr2line over recorded frames --------------------===//

#include "capture_probe/Symbolizer.h"
#include "capture_probe/Strings.h"
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <unistd.h>

namespace capture_probe {

static std::string baseNameOf(const std::string &Path) {
  size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? Path : Path.substr(Slash + 1);
}

bool splitRawFrame(const std::string &Raw, std::string &Module,
                   uint64_t &Offset) {
  size_t Plus = Raw.rfind("+0x");
  if (Plus == std::string::npos || Plus == 0)
    return false;
  char *End = nullptr;
  Offset = std::strtoull(Raw.c_str() + Plus + 3, &End, 16);
  if (!End || *End != '\0' || End == Raw.c_str() + Plus + 3)
    return false;
  Module = Raw.substr(0, Plus);
  return true;
}

std::string sourceOfIntermediate(const std::string &File) {
  static const std::string Suffix = ".cudafe1.cpp";
  std::string Base = baseNameOf(File);
  if (Base.size() <= Suffix.size() ||
      Base.compare(Base.size() - Suffix.size(), Suffix.size(), Suffix) != 0 ||
      Base.rfind("tmpxft_", 0) != 0)
    return File;
  // tmpxft_<pid>_<n>-<k>_<stem>.cudafe1.cpp
  size_t Dash = Base.find('-');
  size_t Under = Dash == std::string::npos ? Dash : Base.find('_', Dash);
  if (Under == std::string::npos)
    return File;
  return Base.substr(Under + 1, Base.size() - Suffix.size() - Under - 1) +
         ".cu";
}

static bool onPath(const std::string &Name) {
  const char *Path = std::getenv("PATH");
  if (!Path)
    return false;
  for (const std::string &Dir : split(Path, ':'))
    if (!Dir.empty() && access((Dir + "/" + Name).c_str(), X_OK) == 0)
      return true;
  return false;
}

Symbolizer::Symbolizer(std::string T) : Tool(std::move(T)) {
  if (!Tool.empty())
    return;
  for (const char *Candidate :
       {"addr2line", "llvm-addr2line-19", "llvm-addr2line"})
    if (onPath(Candidate)) {
      Tool = Candidate;
      break;
    }
}

static std::string shellQuote(const std::string &S) {
  std::string Q = "'";
  for (char C : S)
    Q += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Q + "'";
}

static std::string baseName(const std::string &Path) {
  return baseNameOf(Path);
}

/// Frames a batch names: at most this many addresses per addr2line process.
static constexpr size_t BatchSize = 256;

/// The addr2line command for frames [Start, End) of \p Frames (raw frame,
/// offset), all in \p Module.
static std::string
addr2lineCommand(const std::string &Tool, const std::string &Module,
                 const std::vector<std::pair<std::string, uint64_t>> &Frames,
                 size_t Start, size_t End) {
  // -a starts each address's group; -i lists the inlined frames.
  std::string Cmd = Tool + " -a -f -i -C -e " + shellQuote(Module);
  char Buf[32];
  for (size_t I = Start; I < End; ++I) {
    // Return addresses point after the call; step back into it.
    // Offsets are from the load bias (dl_iterate_phdr), which is what
    // addr2line takes for shared objects, PIE and fixed-address programs.
    uint64_t Addr = Frames[I].second;
    std::snprintf(Buf, sizeof Buf, " 0x%llx",
                  (unsigned long long)(Addr ? Addr - 1 : 0));
    Cmd += Buf;
  }
  return Cmd + " 2>/dev/null";
}

/// What shell command \p Cmd prints, line by line without line ends; false
/// when it cannot be started.
static bool outputLines(const std::string &Cmd,
                        std::vector<std::string> &Lines) {
  std::FILE *P = popen(Cmd.c_str(), "r");
  if (!P)
    return false;
  char Line[4096];
  while (std::fgets(Line, sizeof Line, P)) {
    std::string L = Line;
    while (!L.empty() && (L.back() == '\n' || L.back() == '\r'))
      L.pop_back();
    Lines.push_back(L);
  }
  pclose(P);
  return true;
}

/// \p F's file and line from addr2line's location \p Loc
/// ("file:line (discriminator N)"), where it names one.
static void setLocation(SourceFrame &F, std::string Loc) {
  size_t Disc = Loc.find(" (discriminator");
  if (Disc != std::string::npos)
    Loc.resize(Disc);
  size_t Colon = Loc.rfind(':');
  if (Colon == std::string::npos || Loc.compare(0, 2, "??") == 0)
    return;
  unsigned LineNo = std::strtoul(Loc.c_str() + Colon + 1, nullptr, 10);
  std::string File = Loc.substr(0, Colon);
  std::string Source = sourceOfIntermediate(File);
  // Without host line info (nvcc -lineinfo alone) addr2line knows only the
  // function and nvcc's intermediate file: the .cu it came from is still
  // worth naming.
  if (LineNo || Source != File) {
    F.File = Source;
    F.Line = LineNo;
  }
}

Symbolizer::FramesByModule
Symbolizer::cacheRawFrames(const std::vector<std::string> &RawFrames) {
  FramesByModule ByModule;
  for (const std::string &Raw : RawFrames) {
    if (Cache.count(Raw))
      continue;
    SourceFrame F;
    F.Raw = Raw;
    F.Function = "??";
    uint64_t Offset = 0;
    std::string Module;
    if (splitRawFrame(Raw, Module, Offset)) {
      F.Module = Module;
      ByModule[Module].push_back({Raw, Offset});
    }
    Cache[Raw] = {F};
  }
  return ByModule;
}

void Symbolizer::cacheGroups(const std::string &Module,
                             const ModuleFrames &Frames, size_t Start,
                             size_t End,
                             const std::vector<std::string> &Lines) {
  size_t I = Start - 1, L = 0;
  std::vector<SourceFrame> *Group = nullptr;
  while (L < Lines.size()) {
    if (Lines[L].compare(0, 2, "0x") == 0) {
      if (++I >= End)
        break;
      Group = &Cache[Frames[I].first];
      Group->clear();
      ++L;
      continue;
    }
    if (!Group || L + 1 >= Lines.size())
      break;
    SourceFrame F;
    F.Raw = Frames[I].first;
    F.Module = Module;
    F.Function = Lines[L];
    setLocation(F, Lines[L + 1]);
    L += 2;
    Group->push_back(F);
  }
}

void Symbolizer::resolve(const std::vector<std::string> &RawFrames) {
  FramesByModule ByModule = cacheRawFrames(RawFrames);
  if (Tool.empty())
    return;
  for (auto &KV : ByModule) {
    const std::string &Module = KV.first;
    if (access(Module.c_str(), R_OK) != 0)
      continue;
    const ModuleFrames &Frames = KV.second;
    for (size_t Start = 0; Start < Frames.size(); Start += BatchSize) {
      size_t End = std::min(Frames.size(), Start + BatchSize);
      std::vector<std::string> Lines;
      if (outputLines(addr2lineCommand(Tool, Module, Frames, Start, End),
                      Lines))
        cacheGroups(Module, Frames, Start, End, Lines);
    }
  }
}

std::vector<SourceFrame> Symbolizer::frames(const std::string &Raw) const {
  auto It = Cache.find(Raw);
  if (It != Cache.end() && !It->second.empty())
    return It->second;
  SourceFrame F;
  F.Raw = Raw;
  F.Function = "??";
  std::string Module;
  uint64_t Offset;
  if (splitRawFrame(Raw, Module, Offset))
    F.Module = Module;
  return {F};
}

SourceFrame Symbolizer::frame(const std::string &Raw) const {
  return frames(Raw).front();
}

bool Symbolizer::isRuntimeFrame(const SourceFrame &F) {
  std::string Mod = baseName(F.Module);
  for (const char *P :
       {"libcapture_probe", "libcupti", "libcuda.so", "libcudart",
        "libamdhip64", "libc.so", "libc-", "ld-linux", "libpthread",
        "libstdc++", "libgcc_s", "libdl", "libnvrtc",
        // CUDA libraries: a call they make is reported at the user's call
        // into them (the next frame out), not inside them.
        "libcublas", "libcusparse", "libcusolver", "libcufft", "libcurand",
        "libnccl", "libcudnn", "libnvJitLink", "libnvblas", "libnpp",
        "libcutensor", "libpython"})
    if (Mod.rfind(P, 0) == 0)
      return true;
  const std::string &Fn = F.Function;
  // The probe itself, linked into a test program (the harness); a function
  // of its own that the compiler cloned or inlined may be named without its
  // namespace ("onExit"): its source file tells.
  if (Fn.rfind("capture_probe::", 0) == 0 ||
      F.File.find("/runtime_probe/cuda/") != std::string::npos ||
      F.File.find("/runtime_probe/core/") != std::string::npos)
    return true;
  // Launch stubs and inline wrappers in the CUDA headers.
  if (F.File.find("/include/crt/") != std::string::npos ||
      F.File.find("/cuda_runtime.h") != std::string::npos)
    return true;
  // std::function, std::thread and std::invoke plumbing; HIP's, Thrust's
  // and CUB's headers; anything of the CUDA or ROCm installation.
  for (const char *Dir : {"/include/c++/", "/include/hip/", "/include/thrust/",
                          "/include/cub/", "/include/cuda/std/"})
    if (F.File.find(Dir) != std::string::npos)
      return true;
  if (F.File.rfind("/usr/local/cuda", 0) == 0 ||
      F.File.rfind("/opt/rocm", 0) == 0)
    return true;
  // A line in the user's own file is user code, whatever addr2line names
  // the function (for a lambda inlined into std::thread's runner it names
  // the runner).
  if (!F.File.empty() && F.Line)
    return false;
  for (const char *P : {"cudart::", "__cuda", "cuda", "__hip", "hip",
                        "capture_probe::", "libcudart", "__libc",
                        "std::", "void std::", "_start", "__device_stub__",
                        "execute_native_thread_routine", "start_thread"})
    if (Fn.rfind(P, 0) == 0)
      return true;
  // Driver API entry points linked into the program: cuMemAlloc, cuLaunch...
  return Fn.size() > 2 && Fn[0] == 'c' && Fn[1] == 'u' &&
         std::isupper(static_cast<unsigned char>(Fn[2]));
}

/// Whether the source line of \p F (or the line before it, for a
/// declaration split over lines) defines a __global__ function.
bool Symbolizer::definesKernel(const SourceFrame &F) {
  if (F.File.empty() || !F.Line)
    return false;
  std::string Key = F.File + ":" + std::to_string(F.Line);
  auto It = KernelLines.find(Key);
  if (It != KernelLines.end())
    return It->second;
  bool Kernel = false;
  std::ifstream In(F.File);
  std::string Line, Previous;
  for (unsigned N = 1; In && N <= F.Line && std::getline(In, Line); ++N) {
    if (N == F.Line)
      Kernel = Line.find("__global__") != std::string::npos ||
               Previous.find("__global__") != std::string::npos;
    Previous = Line;
  }
  KernelLines[Key] = Kernel;
  return Kernel;
}

std::vector<SourceFrame> pythonFrames(const std::vector<std::string> &Raw) {
  std::vector<SourceFrame> Out;
  for (const std::string &R : Raw) {
    size_t Fn = R.rfind(':');
    size_t Ln = Fn == std::string::npos || Fn == 0 ? std::string::npos
                                                   : R.rfind(':', Fn - 1);
    if (Ln == std::string::npos)
      continue;
    SourceFrame F;
    F.Raw = R;
    F.Module = "python";
    F.File = R.substr(0, Ln);
    F.Line = unsigned(std::strtoul(R.c_str() + Ln + 1, nullptr, 10));
    F.Function = R.substr(Fn + 1);
    Out.push_back(F);
  }
  return Out;
}

void Symbolizer::symbolize(ProbeReport &R) {
  std::vector<std::string> All;
  auto Collect = [&](const CallRecord &C) {
    All.insert(All.end(), C.Frames.begin(), C.Frames.end());
  };
  for (const CaptureRecord &C : R.Captures) {
    Collect(C.Begin);
    if (C.End)
      Collect(*C.End);
    for (const CallRecord &K : C.Calls)
      Collect(K);
    for (const CallRecord &K : C.Unjoined)
      Collect(K);
    if (C.Fallback)
      Collect(*C.Fallback);
    if (C.StaleFree)
      Collect(*C.StaleFree);
    if (C.StaleLaunch)
      Collect(*C.StaleLaunch);
  }
  resolve(All);
  auto Fill = [&](CallRecord &C) {
    C.Stack.clear();
    C.Site.reset();
    for (const std::string &Raw : C.Frames)
      for (const SourceFrame &F : frames(Raw)) {
        // A <<<>>> launch goes through __device_stub__<kernel>, inside the
        // kernel's host function (at the kernel's definition), often inlined
        // into the caller: launch machinery, not the launch site.
        if (F.Function.rfind("__device_stub__", 0) == 0 || definesKernel(F))
          continue;
        if (!isRuntimeFrame(F) && C.Stack.size() < 8)
          C.Stack.push_back(F);
      }
    C.PyStack = pythonFrames(C.PyFrames);
    for (SourceFrame &F : C.PyStack)
      if (auto User = Inductor.empty() ? std::nullopt : Inductor.userFrame(F))
        F = *User;
    if (!C.PyStack.empty())
      C.Site = C.PyStack.front(); // a Python program: the user's line
    else if (!C.Stack.empty())
      C.Site = C.Stack.front();
    else if (!C.Frames.empty())
      C.Site = frame(C.Frames.front());
  };
  for (CaptureRecord &C : R.Captures) {
    Fill(C.Begin);
    if (C.End)
      Fill(*C.End);
    for (CallRecord &K : C.Calls)
      Fill(K);
    for (CallRecord &K : C.Unjoined)
      Fill(K);
    if (C.Fallback)
      Fill(*C.Fallback);
    if (C.StaleFree)
      Fill(*C.StaleFree);
    if (C.StaleLaunch)
      Fill(*C.StaleLaunch);
  }
}

} // namespace capture_probe
