//===- LargeStack.h - Running clang on a large stack ------------*- C++ -*-===//
//
// clang's parser and preprocessor recurse once per nesting level, so a
// half-typed editor buffer or thousands of nested macro arguments overflow an
// ordinary 8 MB thread stack (clang++-19 itself dies on them). Each file is
// therefore analysed on a thread of its own with a large stack (64 MB). What
// still overflows it is caught: the thread has an alternate signal stack, a
// SIGSEGV handler installed with SA_ONSTACK records the faulting address and
// hands over to llvm::CrashRecoveryContext, and a fault just below the
// thread's stack is reported as a stack overflow rather than as a crash.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_LARGESTACK_H
#define CAPTURE_LINT_TOOL_LARGESTACK_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstddef>

namespace capture_lint {

enum class StackRun {
  Completed,
  /// The work ran out of stack (too deeply nested input).
  StackExhausted,
  /// Any other crash (an internal error).
  Crashed,
};

/// Gives the constructing thread back, on destruction, the alternate signal
/// stack it had on construction. LLVM installs a heap-allocated alternate
/// stack on whichever thread first registers its signal handlers (a cache
/// write's RemoveFileOnSignal on a worker, say); a sanitizer runtime unmaps a
/// thread's alternate stack as the thread exits, and dies on heap memory.
/// Every thread capture-lint starts holds one of these for its lifetime.
class SignalStackKeeper {
public:
  SignalStackKeeper();
  ~SignalStackKeeper();
  SignalStackKeeper(const SignalStackKeeper &) = delete;
  SignalStackKeeper &operator=(const SignalStackKeeper &) = delete;

private:
  void *StartSp = nullptr;
  size_t StartSize = 0;
  bool StartDisabled = true;
  bool Known = false;
};

/// The stack each analysis thread gets.
constexpr unsigned AnalysisStackBytes = 64u << 20;

/// Runs \p Work on a new thread with a \p StackBytes stack under crash
/// recovery, and waits for it.
StackRun runOnLargeStack(llvm::function_ref<void()> Work,
                         unsigned StackBytes = AnalysisStackBytes);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_LARGESTACK_H
