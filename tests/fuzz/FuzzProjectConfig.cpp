//===- FuzzProjectConfig.cpp - .capture-lint.json and CaptureCatalog lists ===//
//
// The first line of the input is a CaptureCatalog option value (a
// ';'-separated list); the rest is a .capture-lint.json, found by walking up
// from a source file beside it and loaded from disk as the CLI, clang-tidy
// and capture-clangd load it.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "capture_lint/ProjectConfig.h"

using namespace capture_lint;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef All(reinterpret_cast<const char *>(Data), Size);
  auto [Option, Config] = All.split('\n');
  for (const std::string &Item : splitCatalogList(Option))
    fuzz::require(!Item.empty() && Item.find(';') == std::string::npos);

  std::string Path = fuzz::writeScratch(ProjectConfigName, Config.bytes_begin(),
                                        Config.size());
  std::string Found = findProjectConfig(fuzz::scratchDir() + "/kernel.cu");
  fuzz::require(Found == Path);
  Catalog C;
  std::string Error;
  if (!C.addFile(Found, Error))
    fuzz::require(Error.find(ProjectConfigName) != std::string::npos);
  return 0;
}
