//===- InProcess.cpp - Thread ids, sequence numbers, call stacks ----------===//

#include "capture_probe/InProcess.h"
#include <algorithm>
#include <cstdio>
#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>
#include <mutex>
#include <sys/syscall.h>
#include <unistd.h>

namespace capture_probe {

uint64_t currentThreadId() {
  static thread_local uint64_t Tid = uint64_t(syscall(SYS_gettid));
  return Tid;
}

uint64_t nextSequence() {
  static std::atomic<uint64_t> Seq{0};
  return ++Seq;
}

static const std::string &selfPath() {
  static const std::string Path = [] {
    char Buf[4096];
    ssize_t L = readlink("/proc/self/exe", Buf, sizeof Buf - 1);
    return L > 0 ? std::string(Buf, size_t(L)) : std::string();
  }();
  return Path;
}

namespace {

/// The loaded modules' address ranges, from dl_iterate_phdr: a binary
/// search per frame instead of dladdr's symbol lookup (which made events
/// twenty times dearer). Rebuilt when an address falls outside every range
/// (a library loaded since).
class ModuleMap {
public:
  /// Appends "module+0xoffset" for each address to \p Out, leaving out
  /// those no module holds and the probe's, CUPTI's and the driver's. One
  /// lock for the whole stack.
  void describe(void *const *Addrs, int N, std::vector<std::string> &Out) {
    std::lock_guard<std::mutex> G(Lock);
    for (int I = 0; I < N; ++I) {
      const Range *R = lookup(uintptr_t(Addrs[I]));
      if (!R) {
        rebuild();
        R = lookup(uintptr_t(Addrs[I]));
      }
      if (!R || Modules[R->Module].Skip)
        continue;
      // dl_iterate_phdr's load bias is 0 for a position-dependent program;
      // offsets are then absolute addresses, which the symbolizer expects
      // (it adds the load address back only for ET_EXEC files it offsets).
      char Hex[32];
      std::snprintf(Hex, sizeof Hex, "+0x%llx",
                    (unsigned long long)(uintptr_t(Addrs[I]) - R->Base));
      Out.push_back(Modules[R->Module].Path + Hex);
    }
  }

private:
  struct Range {
    uintptr_t Start, End, Base;
    size_t Module;
  };
  struct Module {
    std::string Path;
    /// The probe, CUPTI and the driver are never the call site: keep the
    /// log small (capture-heavy programs write an event per call).
    bool Skip;
  };

  const Range *lookup(uintptr_t Addr) const {
    auto It = std::upper_bound(
        Ranges.begin(), Ranges.end(), Addr,
        [](uintptr_t A, const Range &R) { return A < R.Start; });
    if (It == Ranges.begin())
      return nullptr;
    --It;
    return Addr < It->End ? &*It : nullptr;
  }

  static bool skipped(const std::string &Path) {
    return Path.find("libcapture_probe") != std::string::npos ||
           Path.find("libcupti") != std::string::npos ||
           Path.find("/libcuda.so") != std::string::npos;
  }

  void rebuild() {
    Ranges.clear();
    Modules.clear();
    dl_iterate_phdr(
        [](dl_phdr_info *Info, size_t, void *Self) {
          auto *M = static_cast<ModuleMap *>(Self);
          std::string Path = Info->dlpi_name ? Info->dlpi_name : "";
          if (Path.empty())
            Path = selfPath(); // the main program
          bool Skip = skipped(Path);
          M->Modules.push_back({std::move(Path), Skip});
          for (int I = 0; I < Info->dlpi_phnum; ++I) {
            const ElfW(Phdr) &P = Info->dlpi_phdr[I];
            if (P.p_type != PT_LOAD)
              continue;
            uintptr_t Start = Info->dlpi_addr + P.p_vaddr;
            M->Ranges.push_back({Start, Start + P.p_memsz, Info->dlpi_addr,
                                 M->Modules.size() - 1});
          }
          return 0;
        },
        this);
    std::sort(Ranges.begin(), Ranges.end(),
              [](const Range &A, const Range &B) { return A.Start < B.Start; });
  }

  std::mutex Lock;
  std::vector<Range> Ranges;
  std::vector<Module> Modules;
};

ModuleMap &modules() {
  static ModuleMap *M = new ModuleMap; // used from callbacks until exit
  return *M;
}

} // namespace

std::vector<std::string> captureFrames(unsigned MaxFrames) {
  std::vector<void *> Buf(MaxFrames);
  int N = backtrace(Buf.data(), int(Buf.size()));
  std::vector<std::string> Out;
  Out.reserve(N);
  if (N > 1) // frame 0 is this function
    modules().describe(Buf.data() + 1, N - 1, Out);
  return Out;
}

namespace {
struct SpinGuard {
  explicit SpinGuard(std::atomic_flag &F) : F(F) {
    while (F.test_and_set(std::memory_order_acquire)) {
    }
  }
  ~SpinGuard() { F.clear(std::memory_order_release); }
  std::atomic_flag &F;
};
} // namespace

void ActiveCaptures::begin(uint64_t Stream) {
  SpinGuard G(Lock);
  Streams.push_back(Stream);
  Count.store(int(Streams.size()), std::memory_order_relaxed);
}

bool ActiveCaptures::end(uint64_t Stream) {
  SpinGuard G(Lock);
  auto It = std::find(Streams.begin(), Streams.end(), Stream);
  if (It == Streams.end())
    return false;
  Streams.erase(It);
  Count.store(int(Streams.size()), std::memory_order_relaxed);
  return true;
}

bool ActiveCaptures::contains(uint64_t Stream) const {
  SpinGuard G(Lock);
  return std::find(Streams.begin(), Streams.end(), Stream) != Streams.end();
}

} // namespace capture_probe
