//===- FuzzCompileDatabase.cpp - compile_commands.json to clang commands --===//
//
// A database is checked (CompileDatabaseCheck), and one that passes is
// loaded by clang's JSONCompilationDatabase and every command translated
// for clang (nvcc and hipcc flags included), as `capture-lint -p` does.
//
//===----------------------------------------------------------------------===//

#include "CompileDatabaseCheck.h"
#include "CompileFlags.h"
#include "FuzzSupport.h"

#include "clang/Tooling/JSONCompilationDatabase.h"

using namespace capture_lint;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  if (!checkCompileDatabaseText(Text).empty())
    return 0;
  std::string Error;
  auto Db = clang::tooling::JSONCompilationDatabase::loadFromBuffer(
      Text, Error, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!Db)
    return 0;
  ToolPaths Paths{"/resource", "/compat", "/usr/local/cuda"};
  for (const clang::tooling::CompileCommand &C : Db->getAllCompileCommands()) {
    TranslatedCommand T =
        translateCommand(C.CommandLine, C.Filename, C.Directory, Paths);
    for (const std::string &A : T.Args)
      fuzz::require(A.size() <= Size + 4096);
  }
  return 0;
}
