//===- ImportSlots.cpp - A module's import slots from its relocations -----===//
//
// See ImportSlots.h. glibc relocates the address entries of a loaded
// module's dynamic section in place (absolute addresses); an entry still
// below the load address is relative to it.
//
//===----------------------------------------------------------------------===//

#include "ImportSlots.h"
#include <elf.h>

namespace capture_probe {
namespace {

#if defined(__x86_64__)
constexpr unsigned JumpSlot = R_X86_64_JUMP_SLOT, GlobDat = R_X86_64_GLOB_DAT;
#elif defined(__aarch64__)
constexpr unsigned JumpSlot = R_AARCH64_JUMP_SLOT, GlobDat = R_AARCH64_GLOB_DAT;
#else
constexpr unsigned JumpSlot = ~0u, GlobDat = ~0u; // no slots found
#endif

struct Tables {
  uintptr_t Base = 0;
  const ElfW(Sym) *Symbols = nullptr;
  const char *Strings = nullptr;
  const ElfW(Rela) *Plt = nullptr, *Dyn = nullptr;
  size_t PltBytes = 0, DynBytes = 0;
  bool PltIsRela = true;
};

uintptr_t absolute(uintptr_t Base, uintptr_t Ptr) {
  return Ptr < Base ? Base + Ptr : Ptr;
}

bool readDynamic(const dl_phdr_info &Info, Tables &T) {
  T.Base = Info.dlpi_addr;
  const ElfW(Dyn) *Dynamic = nullptr;
  for (int I = 0; I < Info.dlpi_phnum; ++I)
    if (Info.dlpi_phdr[I].p_type == PT_DYNAMIC)
      Dynamic = reinterpret_cast<const ElfW(Dyn) *>(Info.dlpi_addr +
                                                    Info.dlpi_phdr[I].p_vaddr);
  if (!Dynamic)
    return false;
  for (const ElfW(Dyn) *D = Dynamic; D->d_tag != DT_NULL; ++D) {
    uintptr_t Ptr = absolute(T.Base, D->d_un.d_ptr);
    switch (D->d_tag) {
    case DT_SYMTAB:
      T.Symbols = reinterpret_cast<const ElfW(Sym) *>(Ptr);
      break;
    case DT_STRTAB:
      T.Strings = reinterpret_cast<const char *>(Ptr);
      break;
    case DT_JMPREL:
      T.Plt = reinterpret_cast<const ElfW(Rela) *>(Ptr);
      break;
    case DT_PLTRELSZ:
      T.PltBytes = D->d_un.d_val;
      break;
    case DT_PLTREL:
      T.PltIsRela = D->d_un.d_val == DT_RELA;
      break;
    case DT_RELA:
      T.Dyn = reinterpret_cast<const ElfW(Rela) *>(Ptr);
      break;
    case DT_RELASZ:
      T.DynBytes = D->d_un.d_val;
      break;
    default:
      break;
    }
  }
  return T.Symbols && T.Strings;
}

void walk(const Tables &T, const ElfW(Rela) * Relocations, size_t Bytes,
          bool (*Wanted)(const char *, void *),
          void (*Found)(const char *, uintptr_t, void *), void *Ctx) {
  if (!Relocations)
    return;
  for (size_t I = 0; I < Bytes / sizeof(ElfW(Rela)); ++I) {
    const ElfW(Rela) &R = Relocations[I];
    unsigned Type = unsigned(ELF64_R_TYPE(R.r_info));
    size_t Symbol = ELF64_R_SYM(R.r_info);
    if ((Type != JumpSlot && Type != GlobDat) || Symbol == 0)
      continue;
    const ElfW(Sym) &S = T.Symbols[Symbol];
    // An import: undefined here (a definition of the module's own is
    // bound to itself).
    if (S.st_shndx != SHN_UNDEF || S.st_name == 0)
      continue;
    const char *Name = T.Strings + S.st_name;
    if (Wanted(Name, Ctx))
      Found(Name, T.Base + R.r_offset, Ctx);
  }
}

} // namespace

void forEachImportSlot(
    const dl_phdr_info &Info, bool (*Wanted)(const char *Name, void *Ctx),
    void (*Found)(const char *Name, uintptr_t Slot, void *Ctx), void *Ctx) {
  Tables T;
  if (!readDynamic(Info, T))
    return;
  if (T.PltIsRela)
    walk(T, T.Plt, T.PltBytes, Wanted, Found, Ctx);
  walk(T, T.Dyn, T.DynBytes, Wanted, Found, Ctx);
}

} // namespace capture_probe
