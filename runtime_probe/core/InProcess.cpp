//===- InProcess.cpp - Thread ids, sequence numbers, active captures ------===//

#include "capture_probe/InProcess.h"
#include <algorithm>
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

std::vector<uint64_t> ActiveCaptures::streams() const {
  SpinGuard G(Lock);
  return Streams;
}

void FirstCaptures::begin(uint64_t Stream,
                          const std::vector<std::string> &Frames) {
  std::string Chain;
  for (const std::string &F : Frames)
    Chain += F + "\n";
  {
    SpinGuard G(Lock);
    // Past a thousand chains, a program that begins captures everywhere is
    // reported as the others are.
    if (Seen.size() >= 1024 ||
        std::find(Seen.begin(), Seen.end(), Chain) != Seen.end())
      return;
    Seen.push_back(std::move(Chain));
  }
  Open.begin(Stream);
}

} // namespace capture_probe
