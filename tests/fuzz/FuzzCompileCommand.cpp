//===- FuzzCompileCommand.cpp - nvcc/hipcc/clang argv to clang commands ---===//
//
// The input is an argv, one argument a line; the first byte picks the
// compiler (nvcc, hipcc, clang++) so every translator path is reached. An
// --options-file names files relative to the scratch directory, where the
// input itself is also written, so self-inclusion is reachable too.
//
//===----------------------------------------------------------------------===//

#include "CompileFlags.h"
#include "FuzzSupport.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

using namespace capture_lint;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size == 0)
    return 0;
  static const char *Compilers[] = {"/usr/local/cuda/bin/nvcc", "hipcc",
                                    "clang++", "/opt/rocm/bin/hipcc"};
  std::vector<std::string> Argv = {Compilers[Data[0] % 4]};
  llvm::StringRef Rest(reinterpret_cast<const char *>(Data) + 1, Size - 1);
  fuzz::writeScratch("opts.txt", Data + 1, Size - 1);
  llvm::SmallVector<llvm::StringRef, 32> Parts;
  Rest.split(Parts, '\n');
  for (llvm::StringRef P : Parts)
    Argv.push_back(P.str());
  Argv.push_back("kernel.cu");
  ToolPaths Paths{"/resource", "/compat", "/usr/local/cuda"};
  TranslatedCommand T = translateCommand(
      Argv, fuzz::scratchDir() + "/kernel.cu", fuzz::scratchDir(), Paths);
  fuzz::require(!T.Args.empty());
  return 0;
}
