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
  std::string_view Text(reinterpret_cast<const char *>(Data), Size);
  Catalog C;
  std::string Error;
  if (!C.addDocument(Text, "fuzz.json", Error)) {
    fuzz::require(!Error.empty());
    return 0;
  }
  Catalog Again;
  fuzz::require(Again.addDocument(C.toJson(), "exported.json", Error));
  return 0;
}
