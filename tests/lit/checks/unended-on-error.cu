// capture-unended-on-error: paths that leave a function while a capture it
// began is still open (some other path ends it), and the legal look-alikes
// beside them.
// RUN: %expect-exit 1 %capture-lint --quiet --checks=capture-unended-on-error %s -- %cuda-mock \
// RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark|note)}}:"
#include <cuda_runtime.h>

struct Status {
  bool bad;
  bool is_bad() const { return bad; }
};
Status step(cudaStream_t s);
void fill(cudaStream_t s);
[[noreturn]] void abortWith(const char *what);

[[noreturn]] void throwError(const char *what) { throw what; }

// An error-check macro that returns the error.
#define RETURN_IF_ERROR(x)                                                     \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess)                                                     \
      return e_;                                                               \
  } while (0)

// A logging macro whose temporary's destructor throws (tvm's ICHECK shape).
struct FatalLog {
  [[noreturn]] ~FatalLog() noexcept(false) { throw 1; }
  FatalLog &operator<<(const char *) { return *this; }
};
#define CHECK_OK(x)                                                            \
  if ((x) != cudaSuccess)                                                      \
  FatalLog() << "failed: " #x

// A guard that ends the capture when it goes out of scope.
struct CaptureGuard {
  cudaStream_t s;
  cudaGraph_t g = nullptr;
  explicit CaptureGuard(cudaStream_t s) : s(s) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  }
  ~CaptureGuard() { cudaStreamEndCapture(s, &g); }
};

//===--- Reported ---------------------------------------------------------===//

Status earlyReturn(cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  Status e = step(s);
  if (e.is_bad())
    return e;
  // CHECK: :[[@LINE-1]]:5: warning: 'earlyReturn' returns here with the capture of stream 's' still open (begun at line [[@LINE-4]]): the stream stays in capture mode
  // CHECK: :[[@LINE-5]]:3: note: the capture begins here
  // CHECK: :[[@LINE+1]]:3: note: it is ended here on other paths
  cudaStreamEndCapture(s, g);
  return e;
}

cudaError_t macroReturn(cudaStream_t s, cudaGraph_t *g) {
  RETURN_IF_ERROR(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  fill(s);
  RETURN_IF_ERROR(cudaGetLastError());
  // CHECK: :[[@LINE-1]]:3: warning: 'RETURN_IF_ERROR' returns here with the capture of stream 's' still open
  // CHECK: note: the capture begins here
  // CHECK: note: it is ended here on other paths
  RETURN_IF_ERROR(cudaStreamEndCapture(s, g));
  return cudaSuccess;
}

void throws(cudaStream_t s, cudaGraph_t *g, bool bad) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  fill(s);
  if (bad)
    throw "bad input";
  // CHECK: :[[@LINE-1]]:5: warning: 'throws' throws here with the capture of stream 's' still open
  // CHECK: note: the capture begins here
  // CHECK: note: it is ended here on other paths
  cudaStreamEndCapture(s, g);
}

void throwingCheck(cudaStream_t s, cudaGraph_t *g) {
  CHECK_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  fill(s);
  CHECK_OK(cudaGetLastError());
  // CHECK: :[[@LINE-1]]:3: warning: 'CHECK_OK' throws here (through 'FatalLog::~FatalLog') with the capture of stream 's' still open
  // CHECK: note: the capture begins here
  // CHECK: note: it is ended here on other paths
  CHECK_OK(cudaStreamEndCapture(s, g));
}

void noreturnThrower(cudaStream_t s, cudaGraph_t *g, int n) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (n < 0)
    throwError("negative size");
  // CHECK: :[[@LINE-1]]:5: warning: 'noreturnThrower' throws here (through 'throwError') with the capture of stream 's' still open
  // CHECK: note: the capture begins here
  // CHECK: note: it is ended here on other paths
  fill(s);
  cudaStreamEndCapture(s, g);
}

// Several exits of one capture: one finding, a note at each other exit.
int severalExits(cudaStream_t s, cudaGraph_t *g, int n) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (n == 1)
    return 1;
  // CHECK: :[[@LINE-1]]:5: warning: 'severalExits' returns here with the capture of stream 's' still open
  if (n == 2)
    return 2;
  // CHECK: :[[@LINE-1]]:5: note: and returns here with it open
  // CHECK: note: the capture begins here
  // CHECK: note: it is ended here on other paths
  cudaStreamEndCapture(s, g);
  return 0;
}

// The last return reports an error status: an error path, not the main
// path of an opener, though it comes last.
cudaError_t endsOnlyWhenDone(cudaStream_t s, cudaGraph_t *g, bool done) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  fill(s);
  if (done)
    return cudaStreamEndCapture(s, g);
  return cudaErrorIllegalState;
  // CHECK: :[[@LINE-1]]:3: warning: 'endsOnlyWhenDone' returns here with the capture of stream 's' still open (begun at line [[@LINE-5]])
  // CHECK: note: the capture begins here
  // CHECK: note: it is ended here on other paths
}

//===--- Not reported -----------------------------------------------------===//

// The error path ends the capture before it returns.
Status endsOnErrorPath(cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  Status e = step(s);
  if (e.is_bad()) {
    cudaStreamEndCapture(s, g);
    return e;
  }
  cudaStreamEndCapture(s, g);
  return e;
}

// A failed begin starts no capture.
cudaError_t beginFails(cudaStream_t s, cudaGraph_t *g) {
  cudaError_t e = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (e != cudaSuccess)
    return e;
  fill(s);
  return cudaStreamEndCapture(s, g);
}

// A guard ends the capture on every way out, a throw included.
Status guarded(cudaStream_t s, bool bad) {
  CaptureGuard guard(s);
  Status e = step(s);
  if (e.is_bad())
    return e;
  if (bad)
    throw "bad input";
  return e;
}

// The handler ends the capture and rethrows.
void handled(cudaStream_t s, cudaGraph_t *g, bool bad) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  try {
    if (bad)
      throw "bad input";
    fill(s);
  } catch (...) {
    cudaStreamEndCapture(s, g);
    throw;
  }
  cudaStreamEndCapture(s, g);
}

// abort() does not return: the process ends with the capture.
void aborts(cudaStream_t s, cudaGraph_t *g, bool bad) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (bad)
    abortWith("bad input");
  cudaStreamEndCapture(s, g);
}

// A function whose main path (its last exit) leaves the capture open opens
// it for its callers (an opener), even when another path ends it.
void opensUnlessDone(cudaStream_t s, cudaGraph_t *g, bool done) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  fill(s);
  if (done)
    cudaStreamEndCapture(s, g);
}

// A function that opens a capture for its caller returns with it open; its
// callers' capture begins only where it succeeded.
cudaError_t openFor(cudaStream_t s, bool bad) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (bad) {
    cudaGraph_t g;
    cudaStreamEndCapture(s, &g);
    return cudaErrorNotReady;
  }
  return cudaSuccess;
}
void usesOpener(cudaStream_t s, cudaGraph_t *g) {
  if (openFor(s, false) != cudaSuccess)
    return;
  fill(s);
  cudaStreamEndCapture(s, g);
}

// The begin's result through a converter (cutlass's check_cuda_status): its
// failure path begins nothing.
enum class Status2 { kSuccess, kErrorInternal };
Status2 checkCuda(cudaError_t e) {
  if (e != cudaSuccess) {
    cudaGetLastError();
    return Status2::kErrorInternal;
  }
  return Status2::kSuccess;
}
Status2 convertedBegin(cudaStream_t s, cudaGraph_t *g) {
  Status2 st =
      checkCuda(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  if (st != Status2::kSuccess)
    return st;
  fill(s);
  return checkCuda(cudaStreamEndCapture(s, g));
}

// An opener that returns a bool opens nothing where it returned false.
bool tryBegin(cudaStream_t s) {
  return cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess;
}
void usesBoolOpener(cudaStream_t s, cudaGraph_t *g) {
  if (!tryBegin(s))
    return;
  fill(s);
  cudaStreamEndCapture(s, g);
}

// Returning from main ends the process, and the capture with it.
int main() {
  cudaStream_t s = nullptr;
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (step(s).is_bad())
    return 1;
  cudaStreamEndCapture(s, &g);
  return 0;
}

// A local that destroys the stream ends its capture when a throw unwinds;
// one that only holds a handle does not.
struct OwnedStream {
  cudaStream_t s;
  ~OwnedStream() { cudaStreamDestroy(s); }
};
void ownerUnwinds(cudaGraph_t *g, bool bad) {
  OwnedStream owned{nullptr};
  cudaStreamBeginCapture(owned.s, cudaStreamCaptureModeGlobal);
  if (bad)
    throw "bad input";
  cudaStreamEndCapture(owned.s, g);
}
struct Handles {
  cudaStream_t s;
  ~Handles() {}
};
void handleOnly(cudaGraph_t *g, bool bad) {
  Handles held{nullptr};
  cudaStreamBeginCapture(held.s, cudaStreamCaptureModeGlobal);
  if (bad)
    throw "bad input";
  // CHECK: :[[@LINE-1]]:5: warning: 'handleOnly' throws here with the capture of stream 'held.s' still open
  // CHECK: note: the capture begins here
  // CHECK: note: it is ended here on other paths
  cudaStreamEndCapture(held.s, g);
}

// A function-try-block: its handler decides what a throw leaves open.
void functionTry(cudaStream_t s, cudaGraph_t *g, bool bad) try {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (bad)
    throw "bad input";
  cudaStreamEndCapture(s, g);
} catch (...) {
  cudaStreamEndCapture(s, g);
}

// An opener that never ends its capture opens it for its callers on the
// paths that return with it open, whichever exit comes last; its callers'
// error returns are then reported.
bool beginOrFail(cudaStream_t s) {
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess)
    return true;
  return false;
}
int usesBeginOrFail(cudaStream_t s, cudaGraph_t *g, bool bad) {
  if (!beginOrFail(s))
    return 1;
  fill(s);
  if (bad)
    return 2;
  // CHECK: :[[@LINE-1]]:5: warning: 'usesBeginOrFail' returns here with the capture of stream 's' still open
  // CHECK: note: the capture begins here
  // CHECK: note: it is ended here on other paths
  cudaStreamEndCapture(s, g);
  return 0;
}

// A begin and an end under the same condition: the path that skips the end
// never began the capture.
void correlated(cudaStream_t s, cudaGraph_t *g, bool useGraph) {
  if (useGraph)
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  fill(s);
  if (useGraph)
    cudaStreamEndCapture(s, g);
}

// An opener hands its capture to its callers when it returns, but a throw
// after its begin skips the callers' end too: the stream stays capturing.
void beginOrThrow(cudaStream_t s, bool bad) {
  if (bad)
    throw 1; // before the begin: nothing open
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (step(s).is_bad())
    throw 2;
  // CHECK: :[[@LINE-1]]:5: warning: 'beginOrThrow' throws here with the capture of stream 's' still open
  // CHECK: :[[@LINE-4]]:3: note: the capture begins here
  // CHECK: :[[@LINE-8]]:6: note: 'beginOrThrow' leaves the capture open for its callers to end; the exception skips their end too
}
// Legal: an opener whose only exits return with the capture open.
bool beginOrReturn(cudaStream_t s) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  fill(s);
  return true;
}
// Legal as far as this file shows: a local whose destructor is defined in
// another file may end the capture when the throw unwinds it (mlx's
// `auto capture = encoder.capture_context();`), and may be why the function
// looks like an opener at all.
struct ElsewhereGuard {
  ElsewhereGuard(cudaStream_t s);
  ~ElsewhereGuard(); // ends the capture; defined in another file
};
void beginThroughGuard(cudaStream_t s, bool bad) {
  ElsewhereGuard guard(s);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (bad)
    throw 3;
}

// Legal: the begin's result copied into a const local by an error macro
// and tested through checking functions (cuda-api-wrappers'
// throw_if_error_lazy): the opener throws only where its begin failed.
namespace wrap {
constexpr bool is_success(cudaError_t s) { return s == cudaSuccess; }
constexpr bool is_failure(cudaError_t s) { return !is_success(s); }
} // namespace wrap
#define THROW_IF_ERROR(status)                                                 \
  do {                                                                         \
    const cudaError_t tie_ = static_cast<cudaError_t>(status);                 \
    if (wrap::is_failure(tie_))                                                \
      throw 4;                                                                 \
  } while (false)
void beginOrThrowOnFailure(cudaStream_t s) {
  cudaError_t status = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  THROW_IF_ERROR(status);
}

// A throw in a `try` whose handler neither ends the capture nor falls
// through to an end (cudaqx's try_capture_cuda_graph): the handler returns
// with the stream still capturing.
bool tryCapture(cudaStream_t s, cudaGraph_t *g, bool bad) {
  try {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    if (bad)
      throw 5;
    // CHECK: :[[@LINE-1]]:7: warning: 'tryCapture' throws here with the capture of stream 's' still open
    // CHECK: :[[@LINE+6]]:5: note: and returns here with it open
    // CHECK: :[[@LINE-5]]:5: note: the capture begins here
    // CHECK: :[[@LINE+1]]:5: note: it is ended here on other paths
    cudaStreamEndCapture(s, g);
    return true;
  } catch (...) {
    return false;
  }
}
// Legal: the handler falls through to an end after the `try`.
void tryThenEnd(cudaStream_t s, cudaGraph_t *g, bool bad) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  try {
    if (bad)
      throw 6;
  } catch (int) {
  }
  cudaStreamEndCapture(s, g);
}
