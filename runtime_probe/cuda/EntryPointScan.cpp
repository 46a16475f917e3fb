//===- EntryPointScan.cpp - Redirect launch entry points already fetched --===//
//
// See EntryPointScan.h. The segments are listed under dl_iterate_phdr's
// lock and read after it; a copy in a segment the dynamic linker made
// read-only after relocation (RELRO: a GOT linked with -z now) is written
// with its page made writable for the moment.
//
//===----------------------------------------------------------------------===//

#include "EntryPointScan.h"
#include "DriverInterposer.h"
#include "LaunchInterposer.h"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

namespace capture_probe {
namespace {

struct Segment {
  uintptr_t Start, End;
  uintptr_t RelroStart, RelroEnd; // pages read-only after relocation
  uintptr_t Base;
  std::string Module;
};

/// The driver's and CUPTI's modules hold entry points for themselves.
bool isDriverModule(const std::string &Name) {
  for (const char *Part : {"libcuda.so", "libcupti", "libnvidia-", "vdso"})
    if (Name.find(Part) != std::string::npos)
      return true;
  return false;
}

/// Whether a copy in module \p Name is the CUDA runtime's: the shared
/// runtime's, or the program's (where the static runtime is linked). A copy
/// in another library (cuBLASLt keeps its own) is that library's driver call.
bool isRuntimeModule(const std::string &Name) {
  return Name == "(program)" || Name.find("libcudart") != std::string::npos;
}

/// Whether one of the module's loaded segments holds \p Address.
bool holds(const dl_phdr_info &Info, uintptr_t Address) {
  for (int I = 0; I < Info.dlpi_phnum; ++I) {
    const ElfW(Phdr) &P = Info.dlpi_phdr[I];
    uintptr_t Start = Info.dlpi_addr + P.p_vaddr;
    if (P.p_type == PT_LOAD && Address >= Start && Address < Start + P.p_memsz)
      return true;
  }
  return false;
}

struct Collected {
  std::vector<Segment> Segments;
  bool ScanProbeModule;
  ScannedModules *Scanned;
  unsigned Modules = 0;
};

int collectSegments(dl_phdr_info *Info, size_t, void *Arg) {
  auto *Out = static_cast<Collected *>(Arg);
  std::string Name = Info->dlpi_name ? Info->dlpi_name : "";
  if (isDriverModule(Name) ||
      (!Out->ScanProbeModule &&
       holds(*Info, reinterpret_cast<uintptr_t>(&redirectEntryPoints))))
    return 0;
  if (Out->Scanned &&
      !Out->Scanned->emplace(Name, uintptr_t(Info->dlpi_addr)).second)
    return 0; // read by an earlier scan
  ++Out->Modules;
  uintptr_t RelroStart = 0, RelroEnd = 0;
  for (int I = 0; I < Info->dlpi_phnum; ++I)
    if (Info->dlpi_phdr[I].p_type == PT_GNU_RELRO) {
      RelroStart = Info->dlpi_addr + Info->dlpi_phdr[I].p_vaddr;
      RelroEnd = RelroStart + Info->dlpi_phdr[I].p_memsz;
    }
  for (int I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &P = Info->dlpi_phdr[I];
    if (P.p_type != PT_LOAD || !(P.p_flags & PF_W))
      continue;
    uintptr_t Start = Info->dlpi_addr + P.p_vaddr;
    Out->Segments.push_back({Start, Start + P.p_memsz, RelroStart, RelroEnd,
                             uintptr_t(Info->dlpi_addr),
                             Name.empty() ? "(program)" : Name});
  }
  return 0;
}

/// Writes \p Value over the word at \p Address, making its page writable
/// for the moment if the dynamic linker protected it; false if it cannot.
bool overwrite(uintptr_t Address, void *Value, const Segment &S) {
  uintptr_t Page = uintptr_t(sysconf(_SC_PAGESIZE));
  uintptr_t First = Address & ~(Page - 1);
  // glibc protects the RELRO range's whole pages only.
  bool Protected = First >= (S.RelroStart & ~(Page - 1)) &&
                   First + Page <= (S.RelroEnd & ~(Page - 1));
  if (Protected &&
      mprotect(reinterpret_cast<void *>(First), Page, PROT_READ | PROT_WRITE))
    return false;
  __atomic_store_n(reinterpret_cast<void **>(Address), Value, __ATOMIC_RELEASE);
  if (Protected)
    mprotect(reinterpret_cast<void *>(First), Page, PROT_READ);
  return true;
}

/// A word of a module's data. Read whatever lies there: AddressSanitizer's
/// red zones between globals are no error here.
__attribute__((no_sanitize("address", "hwaddress"))) uintptr_t
readWord(uintptr_t Address) {
  return *reinterpret_cast<const uintptr_t *>(Address);
}

std::string where(const Segment &S, uintptr_t Address) {
  char Offset[32];
  std::snprintf(Offset, sizeof(Offset), "+0x%llx",
                (unsigned long long)(Address - S.Base));
  return S.Module + Offset;
}

} // namespace

bool wrapKnownEntryPoint(const std::vector<KnownEntryPoint> &Entries,
                         void **Pfn, bool ByRuntime) {
  uintptr_t V = reinterpret_cast<uintptr_t>(*Pfn);
  auto It = std::lower_bound(
      Entries.begin(), Entries.end(), V,
      [](const KnownEntryPoint &K, uintptr_t A) { return K.Address < A; });
  if (It == Entries.end() || It->Address != V)
    return false;
  return It->DriverId
             ? wrapDriverFunction(It->DriverId, Pfn, ByRuntime)
             : wrapEntryPoint(It->Entry, It->PerThread, Pfn, ByRuntime);
}

EntryPointScan redirectEntryPoints(const std::vector<KnownEntryPoint> &Given,
                                   bool ScanProbeModule,
                                   ScannedModules *Scanned) {
  auto Start = std::chrono::steady_clock::now();
  EntryPointScan Result;
  Result.EntryPoints = unsigned(Given.size());
  if (Given.empty())
    return Result;
  std::vector<KnownEntryPoint> Entries = Given;
  std::sort(Entries.begin(), Entries.end(),
            [](const KnownEntryPoint &A, const KnownEntryPoint &B) {
              return A.Address < B.Address;
            });
  uintptr_t Low = Entries.front().Address, High = Entries.back().Address;
  Collected Found{{}, ScanProbeModule, Scanned};
  dl_iterate_phdr(collectSegments, &Found);
  Result.Modules = Found.Modules;
  for (const Segment &S : Found.Segments) {
    uintptr_t A = (S.Start + 7) & ~uintptr_t(7);
    Result.BytesScanned += S.End > A ? S.End - A : 0;
    for (; A + sizeof(void *) <= S.End; A += sizeof(void *)) {
      uintptr_t V = readWord(A);
      void *Address = reinterpret_cast<void *>(A);
      if (V < Low || V > High || isWrapperStorage(Address) ||
          isDriverWrapperStorage(Address))
        continue;
      void *P = reinterpret_cast<void *>(V);
      if (wrapKnownEntryPoint(Entries, &P, isRuntimeModule(S.Module)) &&
          overwrite(A, P, S))
        Result.Replaced.push_back(where(S, A));
    }
  }
  Result.Milliseconds = std::chrono::duration<double, std::milli>(
                            std::chrono::steady_clock::now() - Start)
                            .count();
  return Result;
}

} // namespace capture_probe
