//===- LaunchInterposer.cpp - Wrappers of the driver's launch entry points ===//
//
// See LaunchInterposer.h. Each kind of entry point has a fixed set of
// wrappers (functions cannot be made at run time); a slot holds the real
// entry point a wrapper calls and what it was handed out for. Slots are
// filled once, under a lock, and only read afterwards.
//
//===----------------------------------------------------------------------===//

#include "LaunchInterposer.h"
#include <array>
#include <atomic>
#include <cstring>
#include <cupti.h> // for the driver calls' parameter structs only
#include <mutex>
#include <utility>

namespace capture_probe {
namespace {

/// Distinct entry points of one kind the probe can wrap: the runtime asks
/// for each once or twice (plain and per-thread), a program rarely.
constexpr int SlotsPerEntry = 8;

struct Slot {
  std::atomic<void *> Real{nullptr};
  bool PerThread = false;
  bool ByRuntime = false;
};

Slot Slots[3][SlotsPerEntry];
std::mutex SlotLock;
std::atomic<LaunchObserver> Observer{nullptr};
std::atomic<unsigned long long> Calls[2];

using KernelFn = CUresult(CUDAAPI *)(CUfunction, unsigned, unsigned, unsigned,
                                     unsigned, unsigned, unsigned, unsigned,
                                     CUstream, void **, void **);
using KernelExFn = CUresult(CUDAAPI *)(const CUlaunchConfig *, CUfunction,
                                       void **, void **);
using CooperativeFn = CUresult(CUDAAPI *)(CUfunction, unsigned, unsigned,
                                          unsigned, unsigned, unsigned,
                                          unsigned, unsigned, CUstream,
                                          void **);

/// The real call between the observer's entry and exit.
template <typename Fn, typename... Args>
CUresult observed(const Slot &S, LaunchEntry Entry, const void *Params,
                  Args... A) {
  auto Real = reinterpret_cast<Fn>(S.Real.load(std::memory_order_acquire));
  Calls[S.ByRuntime].fetch_add(1, std::memory_order_relaxed);
  LaunchObserver O = Observer.load(std::memory_order_acquire);
  if (!O)
    return Real(A...);
  WrappedLaunch L{Entry, S.PerThread, S.ByRuntime, Params};
  O(L, nullptr);
  CUresult R = Real(A...);
  O(L, &R);
  return R;
}

template <int N>
CUresult CUDAAPI kernelWrapper(CUfunction F, unsigned GX, unsigned GY,
                               unsigned GZ, unsigned BX, unsigned BY,
                               unsigned BZ, unsigned Shared, CUstream S,
                               void **Params, void **Extra) {
  cuLaunchKernel_params P{F, GX, GY, GZ, BX, BY, BZ, Shared, S, Params, Extra};
  return observed<KernelFn>(Slots[int(LaunchEntry::Kernel)][N],
                            LaunchEntry::Kernel, &P, F, GX, GY, GZ, BX, BY, BZ,
                            Shared, S, Params, Extra);
}

template <int N>
CUresult CUDAAPI kernelExWrapper(const CUlaunchConfig *Config, CUfunction F,
                                 void **Params, void **Extra) {
  cuLaunchKernelEx_params P{Config, F, Params, Extra};
  return observed<KernelExFn>(Slots[int(LaunchEntry::KernelEx)][N],
                              LaunchEntry::KernelEx, &P, Config, F, Params,
                              Extra);
}

template <int N>
CUresult CUDAAPI cooperativeWrapper(CUfunction F, unsigned GX, unsigned GY,
                                    unsigned GZ, unsigned BX, unsigned BY,
                                    unsigned BZ, unsigned Shared, CUstream S,
                                    void **Params) {
  cuLaunchCooperativeKernel_params P{F,  GX, GY,     GZ, BX,
                                     BY, BZ, Shared, S,  Params};
  return observed<CooperativeFn>(Slots[int(LaunchEntry::Cooperative)][N],
                                 LaunchEntry::Cooperative, &P, F, GX, GY, GZ,
                                 BX, BY, BZ, Shared, S, Params);
}

template <std::size_t... I>
constexpr std::array<std::array<void *, SlotsPerEntry>, 3>
wrapperTable(std::index_sequence<I...>) {
  return {{{reinterpret_cast<void *>(&kernelWrapper<I>)...},
           {reinterpret_cast<void *>(&kernelExWrapper<I>)...},
           {reinterpret_cast<void *>(&cooperativeWrapper<I>)...}}};
}

const std::array<std::array<void *, SlotsPerEntry>, 3> Wrappers =
    wrapperTable(std::make_index_sequence<SlotsPerEntry>());

bool isWrapper(const void *P) {
  for (const auto &Kind : Wrappers)
    for (const void *W : Kind)
      if (W == P)
        return true;
  return false;
}

} // namespace

void setLaunchObserver(LaunchObserver O) {
  Observer.store(O, std::memory_order_release);
}

bool launchEntryOf(const char *Symbol, LaunchEntry &Entry) {
  if (!Symbol)
    return false;
  if (std::strcmp(Symbol, "cuLaunchKernel") == 0)
    Entry = LaunchEntry::Kernel;
  else if (std::strcmp(Symbol, "cuLaunchKernelEx") == 0)
    Entry = LaunchEntry::KernelEx;
  else if (std::strcmp(Symbol, "cuLaunchCooperativeKernel") == 0)
    Entry = LaunchEntry::Cooperative;
  else
    return false;
  return true;
}

bool wrapEntryPoint(LaunchEntry Entry, bool PerThread, void **Pfn,
                    bool ByRuntime) {
  if (!Pfn || !*Pfn || isWrapper(*Pfn))
    return false;
  std::lock_guard<std::mutex> G(SlotLock);
  Slot *Row = Slots[int(Entry)];
  for (int N = 0; N < SlotsPerEntry; ++N) {
    Slot &S = Row[N];
    void *Real = S.Real.load(std::memory_order_relaxed);
    if (Real &&
        (Real != *Pfn || S.PerThread != PerThread || S.ByRuntime != ByRuntime))
      continue;
    if (!Real) {
      S.PerThread = PerThread;
      S.ByRuntime = ByRuntime;
      S.Real.store(*Pfn, std::memory_order_release);
    }
    *Pfn = Wrappers[int(Entry)][N];
    return true;
  }
  return false;
}

bool wrapEntryPoint(const char *Symbol, cuuint64_t Flags, void **Pfn,
                    bool ByRuntime) {
  LaunchEntry Entry;
  return launchEntryOf(Symbol, Entry) &&
         wrapEntryPoint(Entry,
                        Flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
                        Pfn, ByRuntime);
}

bool isWrapperStorage(const void *Address) {
  auto *A = static_cast<const char *>(Address);
  auto *First = reinterpret_cast<const char *>(&Slots[0][0]);
  return A >= First && A < First + sizeof(Slots);
}

unsigned long long wrappedLaunches(bool ByRuntime) {
  return Calls[ByRuntime].load(std::memory_order_relaxed);
}

} // namespace capture_probe
