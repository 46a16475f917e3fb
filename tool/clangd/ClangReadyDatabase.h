//===- ClangReadyDatabase.h - nvcc projects' databases for clangd -*- C++ -*-=//
//
// clangd parses with clang, which rejects nvcc's flags: on a CMake+nvcc
// project, a `.clangd` that only turns the checks on gives every CUDA file
// four "Unknown argument" errors and no findings. capture-clangd does what
// `capture-lint --export-compile-db` does for the user: when the project's
// compile database (compile_commands.json in the workspace root or its
// `build/`) was written for nvcc or hipcc, it writes the translated copy
// into a folder of its own ($XDG_CACHE_HOME/capture-lint/clangd/...) and
// points clangd at it (initializationOptions.compilationDatabasePath),
// writing it again whenever the project's database changes. A database the
// user names (`CompilationDatabase:` in `.clangd`, --compile-commands-dir,
// the editor's compilationDatabasePath) is left as it is.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_CLANGD_CLANGREADYDATABASE_H
#define CAPTURE_LINT_TOOL_CLANGD_CLANGREADYDATABASE_H

#include "llvm/Support/Chrono.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace capture_lint {

class ClangReadyDatabase {
public:
  /// \p Argv0 finds the compat headers; \p UserNamedOne: the command line
  /// names a database.
  ClangReadyDatabase(std::string Argv0, bool UserNamedOne)
      : Argv0(std::move(Argv0)), UserNamedOne(UserNamedOne) {}

  /// For `initialize`: the message to send clangd instead, pointing it at
  /// the translated copy; nothing when the project needs none. \p Log says
  /// what was done (or what failed) for the server log.
  std::optional<nlohmann::json> initialize(const nlohmann::json &Msg,
                                           std::string &Log);

  /// Writes the copy again when the project's database changed since.
  void refresh(std::string &Log);

private:
  bool write(std::string &Log);

  std::string Argv0;
  bool UserNamedOne;
  std::string Source; // the project's compile_commands.json
  std::string OutDir; // where the copy goes
  llvm::sys::TimePoint<> Written;
};

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_CLANGD_CLANGREADYDATABASE_H
