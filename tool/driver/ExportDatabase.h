//===- ExportDatabase.h - A clang-ready copy of a compile database -*- C++ -*-//
//
// `capture-lint --export-compile-db=OUT_DIR -p BUILD_DIR` writes
// OUT_DIR/compile_commands.json: every entry of BUILD_DIR's database with its
// command translated exactly as the CLI translates it for its own analysis
// (CompileFlags.h: response files and nvcc's --options-file expanded, nvcc
// flags translated or dropped, host-only parsing, the compat headers, clang's
// resource directory), as an "arguments" array. clangd, capture-clangd,
// clang-tidy-19 with the plugin and run-clang-tidy-19 then read it as is,
// whichever CMake generator wrote the original.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_EXPORTDATABASE_H
#define CAPTURE_LINT_TOOL_EXPORTDATABASE_H

#include "CompileFlags.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace capture_lint {

struct ExportRequest {
  std::string BuildDir; // holds the compile_commands.json to translate
  std::string OutDir;   // gets the translated compile_commands.json
  /// clang-tidy's --extra-arg-before and --extra-arg, as the CLI adds them.
  std::vector<std::string> ExtraArgsBefore, ExtraArgs;
  ToolPaths Paths;
};

struct ExportResult {
  std::string OutFile; // OUT_DIR/compile_commands.json
  unsigned Entries = 0;
  /// Flags dropped in translation, per entry ("src/a.cu: dropping ...").
  std::vector<std::string> Warnings;
};

/// Translates and writes the database (atomically; OUT_DIR is created).
/// Fails without writing anything when the input database is missing or
/// malformed, an entry's argument file cannot be read, or the output would
/// replace the input database or one of its sources; the error names the
/// culprit.
llvm::Expected<ExportResult> exportCompileDatabase(const ExportRequest &Req);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_EXPORTDATABASE_H
