//===- AllocationHolders.h - Which graphs use each allocation -*- C++ -*-===//
//
// The device allocations (by base address) each live executable graph's
// nodes use, indexed both ways: a free finds the graphs that use the freed
// allocation in time proportional to their number, not to every graph and
// every allocation each one uses. Not locked: the backend holds its memory
// lock around it.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_ALLOCATIONHOLDERS_H
#define CAPTURE_PROBE_ALLOCATIONHOLDERS_H

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace capture_probe {

class AllocationHolders {
public:
  /// Executable graph \p Exec uses the allocations at \p Bases (in place of
  /// what it used before: an instantiation, or a handle reused).
  void hold(uint64_t Exec, std::vector<uint64_t> Bases);
  /// \p Exec is gone (destroyed): it holds nothing.
  void release(uint64_t Exec);
  /// The executable graphs that use the allocation at \p Base, in the order
  /// they came to hold it.
  const std::vector<uint64_t> &holders(uint64_t Base) const;

private:
  std::unordered_map<uint64_t, std::vector<uint64_t>> BasesOf;   // exec
  std::unordered_map<uint64_t, std::vector<uint64_t>> HoldersOf; // base
};

} // namespace capture_probe

#endif // CAPTURE_PROBE_ALLOCATIONHOLDERS_H
