//===- FuzzCacheEntry.cpp - Whole-program cache entries from disk ---------===//
//
// The input is written as the cache entry of one key and loaded; a damaged
// entry must be a miss (never a crash or a hang), and an entry that is used
// must be exactly what this version writes for what was read.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "SummaryCache.h"

using namespace capture_lint;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static const std::string Key = "kernel.cu-0123456789abcdef";
  fuzz::writeScratch((Key + ".json").c_str(), Data, Size);
  SummaryCache Cache(fuzz::scratchDir());
  std::optional<UnitResult> U = Cache.load(Key);
  if (!U)
    return 0;
  // What was trusted stores and loads back unchanged.
  SummaryCache Again(fuzz::scratchDir() + "/again");
  fuzz::require(!Again.store(Key, *U));
  std::optional<UnitResult> V = Again.load(Key);
  fuzz::require(V && V->Findings.size() == U->Findings.size() &&
                V->Errors.size() == U->Errors.size() &&
                V->Summary.Functions.size() == U->Summary.Functions.size());
  return 0;
}
