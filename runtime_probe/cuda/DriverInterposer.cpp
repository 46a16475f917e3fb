//===- DriverInterposer.cpp - Wrappers of every driver function -----------===//
//
// See DriverInterposer.h. DriverWrappers.inc (generated) lists each function
// once with its parameters; the macros below make two wrappers of it (for
// the runtime's copies and for the others') and its row of the table. The
// real function of each id is set once and only read afterwards.
//
//===----------------------------------------------------------------------===//

#include "DriverInterposer.h"
#include <array>
#include <atomic>
#include <mutex>
#include <unordered_set>

namespace capture_probe {
namespace {

std::atomic<void *> Real[CUPTI_DRIVER_TRACE_CBID_SIZE];
std::mutex RealLock;
std::atomic<CallObserver> Observer{nullptr};
std::atomic<unsigned long long> Calls[2];

/// The real call between the observer's entry and exit.
template <typename Fn, typename... Args>
CUresult observed(CUpti_CallbackId Id, const char *Name, bool ByRuntime,
                  const void *Params, const void *Caller, Args... A) {
  auto RealFn = reinterpret_cast<Fn>(Real[Id].load(std::memory_order_acquire));
  Calls[ByRuntime].fetch_add(1, std::memory_order_relaxed);
  CallObserver O = Observer.load(std::memory_order_acquire);
  if (!O)
    return RealFn(A...);
  WrappedCall C{Id, Name, ByRuntime, Params, Caller};
  O(C, nullptr);
  CUresult R = RealFn(A...);
  O(C, &R);
  return R;
}

#define CAPTURE_PROBE_UNPAREN(...) __VA_ARGS__
#define CAPTURE_PROBE_DRIVER_FN(NAME, PARAMS, ARGS)                            \
  template <bool ByRuntime> CUresult CUDAAPI wrap_##NAME PARAMS {              \
    NAME##_params P{CAPTURE_PROBE_UNPAREN ARGS};                               \
    return observed<CUresult(CUDAAPI *) PARAMS>(                               \
        CUPTI_DRIVER_TRACE_CBID_##NAME, #NAME, ByRuntime, &P,                  \
        __builtin_return_address(0), CAPTURE_PROBE_UNPAREN ARGS);              \
  }
#define CAPTURE_PROBE_DRIVER_FN0(NAME)                                         \
  template <bool ByRuntime> CUresult CUDAAPI wrap_##NAME() {                   \
    return observed<CUresult(CUDAAPI *)()>(CUPTI_DRIVER_TRACE_CBID_##NAME,     \
                                           #NAME, ByRuntime, nullptr,          \
                                           __builtin_return_address(0));       \
  }
#include "DriverWrappers.inc"
#undef CAPTURE_PROBE_DRIVER_FN
#undef CAPTURE_PROBE_DRIVER_FN0

struct Row {
  CUpti_CallbackId Id;
  const char *Name;
  void *Wrappers[2]; // for the others' copies, for the runtime's
};

#define CAPTURE_PROBE_DRIVER_FN0(NAME)                                         \
  {CUPTI_DRIVER_TRACE_CBID_##NAME,                                             \
   #NAME,                                                                      \
   {reinterpret_cast<void *>(&wrap_##NAME<false>),                             \
    reinterpret_cast<void *>(&wrap_##NAME<true>)}},
#define CAPTURE_PROBE_DRIVER_FN(NAME, PARAMS, ARGS)                            \
  CAPTURE_PROBE_DRIVER_FN0(NAME)
const Row Table[] = {
#include "DriverWrappers.inc"
};
#undef CAPTURE_PROBE_DRIVER_FN
#undef CAPTURE_PROBE_DRIVER_FN0

/// The table's row of each id, or -1.
const std::array<int, CUPTI_DRIVER_TRACE_CBID_SIZE> &rowOfId() {
  static const auto Rows = [] {
    std::array<int, CUPTI_DRIVER_TRACE_CBID_SIZE> R;
    R.fill(-1);
    for (int I = 0; I < int(sizeof(Table) / sizeof(Table[0])); ++I)
      R[Table[I].Id] = I;
    return R;
  }();
  return Rows;
}

bool isWrapper(const void *P) {
  // Never destroyed: wrappers are made while the process exits too.
  static const auto &All = *[] {
    auto *S = new std::unordered_set<const void *>;
    for (const Row &R : Table)
      S->insert(R.Wrappers, R.Wrappers + 2);
    return S;
  }();
  return All.count(P) != 0;
}

} // namespace

void setCallObserver(CallObserver O) {
  Observer.store(O, std::memory_order_release);
}

const std::vector<DriverFunction> &wrappableDriverFunctions() {
  static const auto &All = *[] {
    auto *V = new std::vector<DriverFunction>;
    for (const Row &R : Table)
      V->push_back({R.Id, R.Name});
    return V;
  }();
  return All;
}

bool wrapDriverFunction(CUpti_CallbackId Id, void **Pfn, bool ByRuntime) {
  if (!Pfn || !*Pfn || Id >= CUPTI_DRIVER_TRACE_CBID_SIZE || isWrapper(*Pfn))
    return false;
  int Row = rowOfId()[Id];
  if (Row < 0)
    return false;
  std::lock_guard<std::mutex> G(RealLock);
  void *Current = Real[Id].load(std::memory_order_relaxed);
  if (Current && Current != *Pfn)
    return false;
  if (!Current)
    Real[Id].store(*Pfn, std::memory_order_release);
  *Pfn = Table[Row].Wrappers[ByRuntime];
  return true;
}

bool isDriverWrapperStorage(const void *Address) {
  auto *A = static_cast<const char *>(Address);
  auto *First = reinterpret_cast<const char *>(&Real[0]);
  return A >= First && A < First + sizeof(Real);
}

unsigned long long wrappedDriverCalls(bool ByRuntime) {
  return Calls[ByRuntime].load(std::memory_order_relaxed);
}

} // namespace capture_probe
