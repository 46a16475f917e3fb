//===- FuzzCacheEntry.cpp - Whole-program cache entries from disk ---------===//
//
// The input is written as the cache entry of one key and loaded; a damaged
// entry must be a miss (never a crash or a hang), and an entry that is used
// must be exactly what this version writes for what was read. An input that
// is a JSON object is then sealed for the key (its key and digest set as
// store() sets them) and loaded again, so the fuzzer reaches the reader of
// the entry's contents rather than stopping at the digest.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "SummaryCache.h"

using namespace capture_lint;

static const std::string Key = "kernel.cu-0123456789abcdef";

/// Loads \p Size bytes at \p Data as the entry of Key and checks what was
/// trusted.
static void loadEntry(const uint8_t *Data, size_t Size) {
  fuzz::writeScratch((Key + ".json").c_str(), Data, Size);
  SummaryCache Cache(fuzz::scratchDir());
  std::optional<UnitResult> U = Cache.load(Key);
  if (!U)
    return;
  // What was trusted stores and loads back unchanged.
  SummaryCache Again(fuzz::scratchDir() + "/again");
  fuzz::require(!Again.store(Key, *U));
  std::optional<UnitResult> V = Again.load(Key);
  fuzz::require(V && V->Findings.size() == U->Findings.size() &&
                V->Errors.size() == U->Errors.size() &&
                V->Summary.Functions.size() == U->Summary.Functions.size());
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  loadEntry(Data, Size);
  std::string Sealed = SummaryCache::seal(
      llvm::StringRef(reinterpret_cast<const char *>(Data), Size), Key);
  if (!Sealed.empty())
    loadEntry(reinterpret_cast<const uint8_t *>(Sealed.data()), Sealed.size());
  return 0;
}
