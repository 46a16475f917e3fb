//===- CallStack.cpp - Unwinding, and recognising a chain seen before -----===//
//
// A stack is unwound with the DWARF unwinder (_Unwind_Backtrace, what
// backtrace() uses), frame by frame, recording each frame's return address
// and canonical frame address (CFA). On x86-64 the return address sits just
// below the CFA, so the unwind also tells where each return address of the
// chain lies, as an offset above captureFrames' own frame. The thread keeps
// these "shapes" with the frames described from them. Next time, a shape whose
// every return address is found in place, at its offset, is the same chain: the
// same code at every level, called from the same places, so a fresh unwind
// would give the same frames. Reading them costs a few dozen loads instead of
// an unwind. Shapes are kept per thread (no lock) and dropped when a library is
// loaded or unloaded; only reads inside the thread's own stack are made.
//
//===----------------------------------------------------------------------===//

#include "capture_probe/CallStack.h"
#include "LoadedModules.h"
#include <atomic>
#include <pthread.h>
#include <unwind.h>

namespace capture_probe {
namespace {

std::atomic<uint64_t> Unwound{0}, Reused{0};

/// A call chain this thread went through.
struct StackShape {
  unsigned MaxFrames = 0;
  /// Where each return address lies above captureFrames' frame (increasing),
  /// and its value.
  std::vector<uintptr_t> Offsets, Returns;
  std::vector<std::string> Frames; // as described
};

/// What a thread knows: its stack's bounds and the chains it went through.
struct ThreadStack {
  uintptr_t Low = 0, High = 0; // 0, 0: unknown (no shapes kept)
  uint64_t Generation = 0;     // the loaded modules the shapes hold for
  std::vector<StackShape> Shapes;
  unsigned Next = 0; // the shape replaced when full
};
constexpr unsigned MaxShapes = 32;

/// A plain pointer, as in the event log: backends are called from atexit
/// handlers and thread_local destructors, after this thread's own
/// thread_local objects may be gone (a new one is made then).
thread_local ThreadStack *Mine = nullptr;
struct ReleaseAtThreadExit {
  ~ReleaseAtThreadExit() {
    delete Mine;
    Mine = nullptr;
  }
};
thread_local ReleaseAtThreadExit ThreadExit;

ThreadStack &threadStack() {
  if (!Mine) {
    (void)&ThreadExit; // armed for this thread
    Mine = new ThreadStack;
    pthread_attr_t Attr;
    if (pthread_getattr_np(pthread_self(), &Attr) == 0) {
      void *Addr = nullptr;
      size_t Size = 0;
      if (pthread_attr_getstack(&Attr, &Addr, &Size) == 0 && Addr && Size) {
        Mine->Low = uintptr_t(Addr);
        Mine->High = uintptr_t(Addr) + Size;
      }
      pthread_attr_destroy(&Attr);
    }
  }
  return *Mine;
}

struct Unwinding {
  uintptr_t *Ips, *Cfas;
  unsigned N = 0, Max;
};

_Unwind_Reason_Code unwindStep(_Unwind_Context *Ctx, void *Arg) {
  auto *U = static_cast<Unwinding *>(Arg);
  if (U->N == U->Max)
    return _URC_END_OF_STACK;
  uintptr_t Ip = _Unwind_GetIP(Ctx);
  if (!Ip)
    return _URC_END_OF_STACK;
  U->Ips[U->N] = Ip;
  U->Cfas[U->N] = _Unwind_GetCFA(Ctx);
  ++U->N;
  return _URC_NO_REASON;
}

/// The frames of a shape of \p T whose return addresses are all in place
/// above \p Ref, or null. It reads other frames' words on purpose.
__attribute__((no_sanitize("address"))) const StackShape *
recognise(const ThreadStack &T, uintptr_t Ref, unsigned MaxFrames) {
  if (!T.High || Ref < T.Low || Ref >= T.High)
    return nullptr; // not on the thread's stack (a signal stack, a fiber)
  for (const StackShape &S : T.Shapes) {
    if (S.MaxFrames != MaxFrames || S.Offsets.back() >= T.High - Ref)
      continue;
    size_t I = 0, N = S.Offsets.size();
    while (I < N && *reinterpret_cast<const uintptr_t *>(Ref + S.Offsets[I]) ==
                        S.Returns[I])
      ++I;
    if (I == N)
      return &S;
  }
  return nullptr;
}

/// Keeps the chain just unwound as a shape of \p T, if every return address
/// lies where the x86-64 convention puts it (not so across a signal frame).
__attribute__((no_sanitize("address"))) void
remember(ThreadStack &T, uintptr_t Ref, const Unwinding &U, unsigned MaxFrames,
         const std::vector<std::string> &Frames) {
#if defined(__x86_64__)
  if (!T.High || Ref < T.Low || Ref >= T.High || U.N < 2)
    return;
  StackShape S;
  S.MaxFrames = MaxFrames;
  for (unsigned K = 1; K < U.N; ++K) {
    uintptr_t Slot = U.Cfas[K] - sizeof(uintptr_t);
    if (Slot <= Ref || Slot + sizeof(uintptr_t) > T.High ||
        (!S.Offsets.empty() && Slot - Ref <= S.Offsets.back()) ||
        *reinterpret_cast<const uintptr_t *>(Slot) != U.Ips[K])
      return;
    S.Offsets.push_back(Slot - Ref);
    S.Returns.push_back(U.Ips[K]);
  }
  S.Frames = Frames;
  if (T.Shapes.size() < MaxShapes) {
    T.Shapes.push_back(std::move(S));
  } else {
    T.Shapes[T.Next] = std::move(S);
    T.Next = (T.Next + 1) % MaxShapes;
  }
#else
  (void)T, (void)Ref, (void)U, (void)MaxFrames, (void)Frames;
#endif
}

} // namespace

__attribute__((noinline)) std::vector<std::string>
captureFrames(unsigned MaxFrames) {
  // captureFrames' frame is the fixed point the shapes are measured from.
  uintptr_t Ref = uintptr_t(__builtin_frame_address(0));
  ThreadStack &T = threadStack();
  uint64_t Generation = moduleGeneration();
  if (Generation != T.Generation) {
    T.Shapes.clear();
    T.Next = 0;
    T.Generation = Generation;
  }
  if (const StackShape *S = recognise(T, Ref, MaxFrames)) {
    Reused.fetch_add(1, std::memory_order_relaxed);
    return S->Frames;
  }
  std::vector<uintptr_t> Ips(MaxFrames), Cfas(MaxFrames);
  Unwinding U{Ips.data(), Cfas.data(), 0, MaxFrames};
  _Unwind_Backtrace(unwindStep, &U);
  Unwound.fetch_add(1, std::memory_order_relaxed);
  std::vector<std::string> Out;
  if (U.N > 1) // frame 0 is this function
    loadedModules().describe(Ips.data() + 1, int(U.N - 1), Out);
  remember(T, Ref, U, MaxFrames, Out);
  return Out;
}

CallStackCounts callStackCounts() {
  return {Unwound.load(std::memory_order_relaxed),
          Reused.load(std::memory_order_relaxed)};
}

} // namespace capture_probe
