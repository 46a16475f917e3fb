//===- InProcess.cpp - Thread ids, sequence numbers, call stacks ----------===//

#include "capture_probe/InProcess.h"
#include <algorithm>
#include <cstdio>
#include <dlfcn.h>
#include <execinfo.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace capture_probe {

uint64_t currentThreadId() {
  static thread_local uint64_t Tid = uint64_t(syscall(SYS_gettid));
  return Tid;
}

uint64_t nextSequence() {
  static std::atomic<uint64_t> Seq{0};
  return ++Seq;
}

static const std::string &selfPath() {
  static const std::string Path = [] {
    char Buf[4096];
    ssize_t L = readlink("/proc/self/exe", Buf, sizeof Buf - 1);
    return L > 0 ? std::string(Buf, size_t(L)) : std::string();
  }();
  return Path;
}

std::vector<std::string> captureFrames(unsigned MaxFrames) {
  std::vector<void *> Buf(MaxFrames);
  int N = backtrace(Buf.data(), int(Buf.size()));
  std::vector<std::string> Out;
  Out.reserve(N);
  char Hex[32];
  for (int I = 1; I < N; ++I) { // frame 0 is this function
    Dl_info Info;
    if (!dladdr(Buf[I], &Info) || !Info.dli_fname)
      continue;
    std::snprintf(Hex, sizeof Hex, "+0x%llx",
                  (unsigned long long)((char *)Buf[I] - (char *)Info.dli_fbase));
    std::string Module = Info.dli_fname;
    // The main program is named as it was started ("./prog", or nothing);
    // name it by its real path so it can be symbolized from anywhere.
    if (Module.empty() || Module[0] != '/')
      Module = selfPath();
    Out.push_back(Module + Hex);
  }
  return Out;
}

namespace {
struct SpinGuard {
  explicit SpinGuard(std::atomic_flag &F) : F(F) {
    while (F.test_and_set(std::memory_order_acquire)) {
    }
  }
  ~SpinGuard() { F.clear(std::memory_order_release); }
  std::atomic_flag &F;
};
} // namespace

void ActiveCaptures::begin(uint64_t Stream) {
  SpinGuard G(Lock);
  Streams.push_back(Stream);
  Count.store(int(Streams.size()), std::memory_order_relaxed);
}

bool ActiveCaptures::end(uint64_t Stream) {
  SpinGuard G(Lock);
  auto It = std::find(Streams.begin(), Streams.end(), Stream);
  if (It == Streams.end())
    return false;
  Streams.erase(It);
  Count.store(int(Streams.size()), std::memory_order_relaxed);
  return true;
}

bool ActiveCaptures::contains(uint64_t Stream) const {
  SpinGuard G(Lock);
  return std::find(Streams.begin(), Streams.end(), Stream) != Streams.end();
}

} // namespace capture_probe
