//===- LoadedModules.cpp - Return addresses as "module+0xoffset" ----------===//

#include "LoadedModules.h"
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <link.h>
#include <unistd.h>

namespace capture_probe {

static const std::string &selfPath() {
  static const std::string Path = [] {
    char Buf[4096];
    ssize_t L = readlink("/proc/self/exe", Buf, sizeof Buf - 1);
    return L > 0 ? std::string(Buf, size_t(L)) : std::string();
  }();
  return Path;
}

/// The probe, CUPTI and the driver are never the call site: leaving them
/// out keeps the log small.
static bool skipped(const std::string &Path) {
  return Path.find("libcapture_probe") != std::string::npos ||
         Path.find("libcupti") != std::string::npos ||
         Path.find("/libcuda.so") != std::string::npos;
}

void LoadedModules::describe(const uintptr_t *Addrs, int N,
                             std::vector<std::string> &Out) {
  std::lock_guard<std::mutex> G(Lock);
  for (int I = 0; I < N; ++I) {
    const Range *R = lookup(Addrs[I]);
    if (!R) {
      rebuild();
      R = lookup(Addrs[I]);
    }
    if (!R || Modules[R->Module].Skip)
      continue;
    // dl_iterate_phdr's load bias is 0 for a position-dependent program;
    // offsets are then absolute addresses, which the symbolizer expects
    // (it adds the load address back only for ET_EXEC files it offsets).
    char Hex[32];
    std::snprintf(Hex, sizeof Hex, "+0x%llx",
                  (unsigned long long)(Addrs[I] - R->Base));
    Out.push_back(Modules[R->Module].Path + Hex);
  }
}

const LoadedModules::Range *LoadedModules::lookup(uintptr_t Addr) const {
  auto It =
      std::upper_bound(Ranges.begin(), Ranges.end(), Addr,
                       [](uintptr_t A, const Range &R) { return A < R.Start; });
  if (It == Ranges.begin())
    return nullptr;
  --It;
  return Addr < It->End ? &*It : nullptr;
}

void LoadedModules::rebuild() {
  Ranges.clear();
  Modules.clear();
  dl_iterate_phdr(
      [](dl_phdr_info *Info, size_t, void *Self) {
        auto *M = static_cast<LoadedModules *>(Self);
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

uint64_t moduleGeneration() {
  uint64_t Generation = 0;
  // The counts are the same in every entry: the first one is enough.
  dl_iterate_phdr(
      [](dl_phdr_info *Info, size_t Size, void *Out) {
        if (Size >= offsetof(dl_phdr_info, dlpi_subs) + sizeof Info->dlpi_subs)
          *static_cast<uint64_t *>(Out) =
              uint64_t(Info->dlpi_adds) * 0x9e3779b97f4a7c15ull ^
              uint64_t(Info->dlpi_subs);
        return 1;
      },
      &Generation);
  return Generation;
}

LoadedModules &loadedModules() {
  static LoadedModules *M = new LoadedModules;
  return *M;
}

} // namespace capture_probe
