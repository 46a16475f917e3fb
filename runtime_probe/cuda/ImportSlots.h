//===- ImportSlots.h - Where a module keeps its imports ---------*- C++ -*-===//
//
// A module calls an imported function through a slot of its global offset
// table: a JUMP_SLOT relocation (a call through the PLT, bound at the first
// call unless linked with -z now) or a GLOB_DAT one (the function's address
// taken). Until a lazily bound slot is first called it holds the module's
// own PLT code, not the function: a scan for copies of the function's
// address cannot find it. This lists the slots by symbol name from the
// module's dynamic relocations, bound or not (the PLT-hook technique), for
// the entry-point scan (EntryPointScan.h). ELF only; x86-64 and AArch64
// relocation types.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_CUDA_IMPORTSLOTS_H
#define CAPTURE_PROBE_CUDA_IMPORTSLOTS_H

#include <cstdint>
#include <link.h>

namespace capture_probe {

/// Calls \p Found(Name, SlotAddress, Ctx) for each slot of \p Info's module
/// that holds an imported function (JUMP_SLOT, GLOB_DAT) whose symbol name
/// \p Wanted(Name, Ctx) accepts. Reads only the module's own loaded
/// dynamic section, relocations and symbol tables: safe inside
/// dl_iterate_phdr's callback.
void forEachImportSlot(
    const dl_phdr_info &Info, bool (*Wanted)(const char *Name, void *Ctx),
    void (*Found)(const char *Name, uintptr_t Slot, void *Ctx), void *Ctx);

} // namespace capture_probe

#endif // CAPTURE_PROBE_CUDA_IMPORTSLOTS_H
