//===- EntryPointScan.cpp - Redirect launch entry points already fetched --===//
//
// See EntryPointScan.h. The segments are listed under dl_iterate_phdr's
// lock and read after it; a copy in a segment the dynamic linker made
// read-only after relocation (RELRO: a GOT linked with -z now) is written
// with its page made writable for the moment.
//
//===----------------------------------------------------------------------===//

#include "EntryPointScan.h"
#include "DlsymInterposer.h"
#include "DriverInterposer.h"
#include "ImportSlots.h"
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

/// An import slot of an entry point or a lookup function (ImportSlots.h).
struct Import {
  std::string Symbol, Module;
  uintptr_t Slot;
  /// What the slot held when listed; bound: not the module's own PLT code.
  uintptr_t Value;
  bool Bound;
};

struct Collected {
  std::vector<Segment> Segments;
  bool ScanProbeModule;
  ScannedModules *Scanned;
  /// Exported names of the entry points looked for (sorted), if the import
  /// slots are listed too.
  const std::vector<std::string> *Symbols;
  std::vector<Import> Imports;
  const dl_phdr_info *Current = nullptr;
  unsigned Modules = 0;
};

bool wantedImport(const char *Name, void *Arg) {
  auto *Out = static_cast<Collected *>(Arg);
  return isLookupFunction(Name) ||
         std::binary_search(Out->Symbols->begin(), Out->Symbols->end(), Name);
}

void foundImport(const char *Name, uintptr_t Slot, void *Arg) {
  auto *Out = static_cast<Collected *>(Arg);
  uintptr_t Value = *reinterpret_cast<const uintptr_t *>(Slot);
  std::string Module = Out->Current->dlpi_name ? Out->Current->dlpi_name : "";
  Out->Imports.push_back({Name, Module.empty() ? "(program)" : Module, Slot,
                          Value, !holds(*Out->Current, Value)});
}

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
  if (Out->Symbols) {
    Out->Current = Info;
    forEachImportSlot(*Info, wantedImport, foundImport, Out);
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

const Segment *segmentOf(const std::vector<Segment> &Segments,
                         uintptr_t Address) {
  for (const Segment &S : Segments)
    if (Address >= S.Start && Address + sizeof(void *) <= S.End)
      return &S;
  return nullptr;
}

/// What the dynamic linker binds \p Symbol to for a call from \p Module:
/// the global definition, else the module's own dependencies'.
uintptr_t bindingOf(const std::string &Symbol, const std::string &Module) {
  if (void *Global = dlsym(RTLD_DEFAULT, Symbol.c_str()))
    return reinterpret_cast<uintptr_t>(Global);
  void *Handle = dlopen(Module == "(program)" ? nullptr : Module.c_str(),
                        RTLD_LAZY | RTLD_NOLOAD);
  if (!Handle)
    return 0;
  void *Local = dlsym(Handle, Symbol.c_str());
  dlclose(Handle);
  return reinterpret_cast<uintptr_t>(Local);
}

/// The wrapper for import slot \p I, or null: a lookup function's, or an
/// entry point's where the slot is not yet bound and would be bound to it
/// (a bound one is a copy the value scan replaces).
void *importWrapper(const Import &I,
                    const std::vector<KnownEntryPoint> &Entries,
                    bool ByRuntime) {
  if (isLookupFunction(I.Symbol.c_str())) {
    // Not yet bound: as the dynamic linker would bind it (an interposer of
    // dlsym is left alone).
    uintptr_t Current = I.Bound ? I.Value : bindingOf(I.Symbol, I.Module);
    return lookupWrapper(I.Symbol.c_str(), reinterpret_cast<void *>(Current),
                         ByRuntime);
  }
  if (I.Bound)
    return nullptr;
  uintptr_t Target = bindingOf(I.Symbol, I.Module);
  auto It = std::find_if(Entries.begin(), Entries.end(),
                         [&](const KnownEntryPoint &K) {
                           return K.Symbol && I.Symbol == K.Symbol;
                         });
  if (It == Entries.end() || It->Address != Target)
    return nullptr;
  void *P = reinterpret_cast<void *>(Target);
  return wrapKnownEntryPoint(Entries, &P, ByRuntime) ? P : nullptr;
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
                                   ScannedModules *Scanned, bool Imports) {
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
  std::vector<std::string> Symbols;
  for (const KnownEntryPoint &K : Entries)
    if (K.Symbol)
      Symbols.push_back(K.Symbol);
  std::sort(Symbols.begin(), Symbols.end());
  Collected Found{{}, ScanProbeModule, Scanned, Imports ? &Symbols : nullptr};
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
  for (const Import &I : Found.Imports) {
    const Segment *S = segmentOf(Found.Segments, I.Slot);
    void *Wrapper =
        S ? importWrapper(I, Entries, isRuntimeModule(I.Module)) : nullptr;
    if (Wrapper && overwrite(I.Slot, Wrapper, *S))
      Result.Replaced.push_back(where(*S, I.Slot) + " (" + I.Symbol + ")");
  }
  Result.Milliseconds = std::chrono::duration<double, std::milli>(
                            std::chrono::steady_clock::now() - Start)
                            .count();
  return Result;
}

} // namespace capture_probe
