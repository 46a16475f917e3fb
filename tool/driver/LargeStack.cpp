//===- LargeStack.cpp - Running clang where deep nesting cannot kill us ---===//

#include "LargeStack.h"

#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/thread.h"

#include <csignal>
#include <cstdint>
#include <memory>
#include <mutex>
#include <pthread.h>

namespace capture_lint {

namespace {

/// The faulting address of the last SIGSEGV/SIGBUS on this thread.
thread_local uintptr_t LastFault = 0;

struct sigaction PreviousSegv, PreviousBus;

/// Records the address, then does what the handler before it (crash
/// recovery's) would have done. Runs on the alternate stack.
void onFault(int Sig, siginfo_t *Info, void *Context) {
  LastFault = reinterpret_cast<uintptr_t>(Info->si_addr);
  const struct sigaction &Prev = Sig == SIGBUS ? PreviousBus : PreviousSegv;
  if (Prev.sa_flags & SA_SIGINFO) {
    Prev.sa_sigaction(Sig, Info, Context);
    return;
  }
  if (Prev.sa_handler != SIG_DFL && Prev.sa_handler != SIG_IGN) {
    Prev.sa_handler(Sig);
    return;
  }
  // Nobody recovers: die of the signal as before.
  signal(Sig, SIG_DFL);
}

void installFaultHandlers() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    llvm::CrashRecoveryContext::Enable(); // its handlers come first
    struct sigaction A = {};
    A.sa_sigaction = onFault;
    A.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&A.sa_mask);
    sigaction(SIGSEGV, &A, &PreviousSegv);
    sigaction(SIGBUS, &A, &PreviousBus);
  });
}

/// An alternate signal stack for the calling thread, so a handler can run
/// when the thread's own stack is exhausted.
class AltStack {
public:
  AltStack() : Memory(new char[Size]) {
    stack_t S = {};
    S.ss_sp = Memory.get();
    S.ss_size = Size;
    Installed = sigaltstack(&S, &Old) == 0;
  }
  ~AltStack() {
    if (Installed)
      sigaltstack(&Old, nullptr);
  }

private:
  static constexpr size_t Size = 256 * 1024;
  std::unique_ptr<char[]> Memory;
  stack_t Old = {};
  bool Installed = false;
};

/// The calling thread's stack: [Low, High).
bool stackBounds(uintptr_t &Low, uintptr_t &High) {
  pthread_attr_t Attr;
  if (pthread_getattr_np(pthread_self(), &Attr) != 0)
    return false;
  void *Addr = nullptr;
  size_t Size = 0;
  bool Ok = pthread_attr_getstack(&Attr, &Addr, &Size) == 0;
  pthread_attr_destroy(&Attr);
  Low = reinterpret_cast<uintptr_t>(Addr);
  High = Low + Size;
  return Ok;
}

} // namespace

SignalStackKeeper::SignalStackKeeper() {
  stack_t Start = {};
  Known = sigaltstack(nullptr, &Start) == 0;
  StartSp = Start.ss_sp;
  StartSize = Start.ss_size;
  StartDisabled = Start.ss_flags & SS_DISABLE;
}

SignalStackKeeper::~SignalStackKeeper() {
  stack_t Now = {};
  if (!Known || sigaltstack(nullptr, &Now) != 0 || Now.ss_sp == StartSp)
    return;
  stack_t Start = {};
  Start.ss_sp = StartSp;
  Start.ss_size = StartSize;
  Start.ss_flags = StartDisabled ? SS_DISABLE : 0;
  sigaltstack(&Start, nullptr);
}

StackRun runOnLargeStack(llvm::function_ref<void()> Work, unsigned StackBytes) {
  installFaultHandlers();
  StackRun Result = StackRun::Completed;
  llvm::thread Thread(std::optional<unsigned>(StackBytes), [&] {
    SignalStackKeeper Keeper;
    AltStack Alt;
    uintptr_t Low = 0, High = 0;
    bool Known = stackBounds(Low, High);
    LastFault = 0;
    llvm::CrashRecoveryContext CRC;
    if (CRC.RunSafely(Work))
      return;
    // A fault within the guard area just below the stack (or in its last
    // page) is an overflow.
    const uintptr_t Slack = 1u << 20;
    bool Overflow = Known && LastFault != 0 && LastFault + Slack >= Low &&
                    LastFault < Low + 4 * 4096;
    Result = Overflow ? StackRun::StackExhausted : StackRun::Crashed;
  });
  Thread.join();
  return Result;
}

} // namespace capture_lint
