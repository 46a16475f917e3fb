//===- AllocationHolders.cpp - Which graphs use each allocation -----------===//
//
// See AllocationHolders.h.
//
//===----------------------------------------------------------------------===//

#include "capture_probe/AllocationHolders.h"
#include <algorithm>

namespace capture_probe {

void AllocationHolders::hold(uint64_t Exec, std::vector<uint64_t> Bases) {
  release(Exec);
  std::sort(Bases.begin(), Bases.end());
  Bases.erase(std::unique(Bases.begin(), Bases.end()), Bases.end());
  if (Bases.empty())
    return;
  for (uint64_t Base : Bases)
    HoldersOf[Base].push_back(Exec);
  BasesOf[Exec] = std::move(Bases);
}

void AllocationHolders::release(uint64_t Exec) {
  auto It = BasesOf.find(Exec);
  if (It == BasesOf.end())
    return;
  for (uint64_t Base : It->second) {
    auto H = HoldersOf.find(Base);
    if (H == HoldersOf.end())
      continue;
    H->second.erase(std::remove(H->second.begin(), H->second.end(), Exec),
                    H->second.end());
    if (H->second.empty())
      HoldersOf.erase(H);
  }
  BasesOf.erase(It);
}

const std::vector<uint64_t> &AllocationHolders::holders(uint64_t Base) const {
  static const std::vector<uint64_t> None;
  auto It = HoldersOf.find(Base);
  return It == HoldersOf.end() ? None : It->second;
}

} // namespace capture_probe
