//===- DlsymInterposer.cpp - Wrappers of dlsym and dlvsym -----------------===//
//
// See DlsymInterposer.h. Each wrapper is an assembly thunk: a pseudo-handle
// (RTLD_DEFAULT is 0, RTLD_NEXT is -1) jumps on to the C library's function
// with the caller's return address intact; any other handle goes to the
// C++ function that looks up and observes. Two thunks per function: for the
// runtime's module and for the others'.
//
//===----------------------------------------------------------------------===//

#include "DlsymInterposer.h"
#include <atomic>
#include <cstring>
#include <dlfcn.h>

#define CAPTURE_PROBE_HIDDEN extern "C" __attribute__((visibility("hidden")))

// Set once, before any slot holds a thunk; read by the thunks.
extern "C" {
__attribute__((visibility("hidden"))) void *capture_probe_real_dlsym = nullptr;
__attribute__((visibility("hidden"))) void *capture_probe_real_dlvsym = nullptr;
}

namespace {

std::atomic<capture_probe::LookupObserver> Observer{nullptr};
std::atomic<unsigned long long> Lookups{0};

void *observed(void *Found, bool ByRuntime) {
  Lookups.fetch_add(1, std::memory_order_relaxed);
  if (capture_probe::LookupObserver O =
          Observer.load(std::memory_order_acquire);
      O && Found)
    O(&Found, ByRuntime);
  return Found;
}

using DlsymFn = void *(*)(void *, const char *);
using DlvsymFn = void *(*)(void *, const char *, const char *);

} // namespace

// clang-format off (not stable on this macro)
#define CAPTURE_PROBE_LOOKUPS(RT)                                              \
  CAPTURE_PROBE_HIDDEN                                                         \
  __attribute__((used)) void *capture_probe_wrapped_dlsym_##RT(                \
      void *Handle, const char *Name) {                                        \
    return observed(                                                           \
        reinterpret_cast<DlsymFn>(capture_probe_real_dlsym)(Handle, Name),     \
        RT);                                                                   \
  }                                                                            \
  CAPTURE_PROBE_HIDDEN                                                         \
  __attribute__((used)) void *capture_probe_wrapped_dlvsym_##RT(               \
      void *Handle, const char *Name, const char *Version) {                   \
    return observed(reinterpret_cast<DlvsymFn>(capture_probe_real_dlvsym)(     \
                        Handle, Name, Version),                                \
                    RT);                                                       \
  }
// clang-format on
CAPTURE_PROBE_LOOKUPS(0)
CAPTURE_PROBE_LOOKUPS(1)
#undef CAPTURE_PROBE_LOOKUPS

#if defined(__x86_64__) || defined(__aarch64__)
#define CAPTURE_PROBE_HAVE_THUNKS 1
#if defined(__x86_64__)
// endbr64: a valid target of an indirect jump where CET is enforced.
#define CAPTURE_PROBE_THUNK_BODY(WRAPPED, REAL)                                \
  "  endbr64\n"                                                                \
  "  test %rdi, %rdi\n"                                                        \
  "  jz 1f\n"                                                                  \
  "  cmp $-1, %rdi\n"                                                          \
  "  je 1f\n"                                                                  \
  "  jmp " WRAPPED "\n"                                                        \
  "1:\n"                                                                       \
  "  jmp *" REAL "(%rip)\n"
#else
// hint #34 is "bti c": a valid target where branch protection is enforced.
#define CAPTURE_PROBE_THUNK_BODY(WRAPPED, REAL)                                \
  "  hint #34\n"                                                               \
  "  cbz x0, 1f\n"                                                             \
  "  cmn x0, #1\n"                                                             \
  "  b.eq 1f\n"                                                                \
  "  b " WRAPPED "\n"                                                          \
  "1:\n"                                                                       \
  "  adrp x16, " REAL "\n"                                                     \
  "  ldr x16, [x16, :lo12:" REAL "]\n"                                         \
  "  br x16\n"
#endif
#define CAPTURE_PROBE_THUNK(NAME, WRAPPED, REAL)                               \
  asm(".pushsection .text\n"                                                   \
      ".p2align 4\n"                                                           \
      ".globl " NAME "\n"                                                      \
      ".hidden " NAME "\n"                                                     \
      ".type " NAME ", %function\n" NAME                                       \
      ":\n" CAPTURE_PROBE_THUNK_BODY(WRAPPED, REAL) ".size " NAME ", .-" NAME  \
                                                    "\n"                       \
                                                    ".popsection\n");
CAPTURE_PROBE_THUNK("capture_probe_dlsym_thunk_0",
                    "capture_probe_wrapped_dlsym_0", "capture_probe_real_dlsym")
CAPTURE_PROBE_THUNK("capture_probe_dlsym_thunk_1",
                    "capture_probe_wrapped_dlsym_1", "capture_probe_real_dlsym")
CAPTURE_PROBE_THUNK("capture_probe_dlvsym_thunk_0",
                    "capture_probe_wrapped_dlvsym_0",
                    "capture_probe_real_dlvsym")
CAPTURE_PROBE_THUNK("capture_probe_dlvsym_thunk_1",
                    "capture_probe_wrapped_dlvsym_1",
                    "capture_probe_real_dlvsym")
CAPTURE_PROBE_HIDDEN void capture_probe_dlsym_thunk_0();
CAPTURE_PROBE_HIDDEN void capture_probe_dlsym_thunk_1();
CAPTURE_PROBE_HIDDEN void capture_probe_dlvsym_thunk_0();
CAPTURE_PROBE_HIDDEN void capture_probe_dlvsym_thunk_1();
#endif

namespace capture_probe {
namespace {

struct LookupFunction {
  const char *Name;
  void *Library;   // the C library's function
  void **Real;     // where the thunks find it
  void *Thunks[2]; // for the others' modules, for the runtime's
};

const LookupFunction *lookupFunction(const char *Name) {
#ifdef CAPTURE_PROBE_HAVE_THUNKS
  static const LookupFunction Functions[] = {
      {"dlsym",
       reinterpret_cast<void *>(&::dlsym),
       &capture_probe_real_dlsym,
       {reinterpret_cast<void *>(&capture_probe_dlsym_thunk_0),
        reinterpret_cast<void *>(&capture_probe_dlsym_thunk_1)}},
      {"dlvsym",
       reinterpret_cast<void *>(&::dlvsym),
       &capture_probe_real_dlvsym,
       {reinterpret_cast<void *>(&capture_probe_dlvsym_thunk_0),
        reinterpret_cast<void *>(&capture_probe_dlvsym_thunk_1)}}};
  for (const LookupFunction &F : Functions)
    if (std::strcmp(F.Name, Name) == 0)
      return &F;
#else
  (void)Name;
#endif
  return nullptr;
}

} // namespace

void setLookupObserver(LookupObserver O) {
  Observer.store(O, std::memory_order_release);
}

bool isLookupFunction(const char *Name) {
  return std::strcmp(Name, "dlsym") == 0 || std::strcmp(Name, "dlvsym") == 0;
}

void *lookupWrapper(const char *Name, const void *Current, bool ByRuntime) {
  const LookupFunction *F = lookupFunction(Name);
  if (!F || Current != F->Library)
    return nullptr;
  __atomic_store_n(F->Real, F->Library, __ATOMIC_RELEASE);
  return F->Thunks[ByRuntime];
}

unsigned long long wrappedLookups() {
  return Lookups.load(std::memory_order_relaxed);
}

} // namespace capture_probe
