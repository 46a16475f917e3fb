//===- FuzzCatalog.cpp - The API catalog loader on arbitrary documents ----===//
//
// Any document either loads or is rejected with an error; one that loads
// exports (--export-catalog) to a document that loads again.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "capture_lint/Catalog.h"

using namespace capture_lint;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  Catalog C;
  if (llvm::Error E = C.addDocument(Text, "fuzz.json")) {
    fuzz::require(!llvm::toString(std::move(E)).empty());
    return 0;
  }
  Catalog Again;
  llvm::Error E = Again.addDocument(C.toJson(), "exported.json");
  fuzz::require(!E);
  return 0;
}
