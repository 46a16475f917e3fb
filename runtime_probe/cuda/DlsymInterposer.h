//===- DlsymInterposer.h - Entry points a module looks up later -*- C++ -*-===//
//
// A library that embeds the static CUDA runtime (cuBLAS, cuSPARSE) fills its
// table of driver entry points when it is first used, long after the
// probe's start: dlopen("libcuda.so.1"), dlsym(driver, "cuGetProcAddress"),
// then one cuGetProcAddress per function. The scan (EntryPointScan.h) finds
// the table empty, and the probe without CUPTI would never see those calls.
// Redirecting the module's dlsym and dlvsym slots to these wrappers closes
// that: the wrapper looks the symbol up and hands the result to an
// observer, which may replace it by the probe's wrapper of that driver
// function (cuGetProcAddress's own wrapper wraps what it returns).
//
// A lookup relative to the caller (RTLD_DEFAULT, RTLD_NEXT: glibc reads the
// caller from the return address) is passed on untouched by a tail jump, so
// glibc still sees the module that called; only lookups in a given handle
// are observed. The jumps are a few instructions of assembly: x86-64 and
// AArch64 only (elsewhere, nothing is redirected).
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_CUDA_DLSYMINTERPOSER_H
#define CAPTURE_PROBE_CUDA_DLSYMINTERPOSER_H

namespace capture_probe {

/// Called with what a lookup in a handle found (never null) and whether the
/// CUDA runtime looked it up (its module); may replace \p *Result.
using LookupObserver = void (*)(void **Result, bool ByRuntime);

/// Installs the observer (none: the wrappers only look up).
void setLookupObserver(LookupObserver O);

/// Whether \p Name is a lookup function the wrappers stand for (dlsym,
/// dlvsym).
bool isLookupFunction(const char *Name);

/// The wrapper of lookup function \p Name to put in a slot bound to
/// \p Current, for the runtime's module or another. Null if \p Name is not
/// one, if these wrappers do not exist on this architecture, if \p Current
/// is a wrapper already, or if it is another definition than the C
/// library's (an interposer of dlsym: left alone).
void *lookupWrapper(const char *Name, const void *Current, bool ByRuntime);

/// Lookups in a handle the wrappers made so far.
unsigned long long wrappedLookups();

} // namespace capture_probe

#endif // CAPTURE_PROBE_CUDA_DLSYMINTERPOSER_H
