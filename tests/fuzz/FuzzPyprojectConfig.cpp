//===- FuzzPyprojectConfig.cpp - [tool.capture-lint] of pyproject.toml ----===//
//
// The input is a pyproject.toml: its [tool.capture-lint] table is read, or
// the error names the file and a line of it.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "PyprojectConfig.h"

using namespace capture_lint;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  auto C = parsePyprojectConfig(Text, "/p/pyproject.toml");
  if (!C) {
    std::string Why = llvm::toString(C.takeError());
    fuzz::require(llvm::StringRef(Why).starts_with("/p/pyproject.toml:"));
    return 0;
  }
  if (C->MaxCallDepth)
    fuzz::require(*C->MaxCallDepth >= 1 && *C->MaxCallDepth <= 64);
  for (const std::string &Catalog : C->Catalogs)
    fuzz::require(llvm::StringRef(Catalog).starts_with("/"));
  fuzz::require(!C->Path.empty() ||
                (C->Exclude.empty() && C->Catalogs.empty() && !C->Checks));
  return 0;
}
