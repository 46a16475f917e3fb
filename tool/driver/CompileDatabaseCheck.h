//===- CompileDatabaseCheck.h - A database's shape, checked -----*- C++ -*-===//
//
// clang's JSONCompilationDatabase accepts entries that then fail far from
// their cause: a `command` that is not a string becomes "no input files", a
// relative `directory` makes every file "not in the compile database". The
// database is therefore read (without blocking, with a size limit) and each
// entry checked first, and a problem names the entry and the field.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_COMPILEDATABASECHECK_H
#define CAPTURE_LINT_TOOL_COMPILEDATABASECHECK_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace capture_lint {

/// Checks the text of a compile_commands.json. Returns "" or the first
/// problem ("entry 3 ('src/a.cu'): 'directory' is relative ...").
std::string checkCompileDatabaseText(llvm::StringRef Text);

/// Reads and checks the database at \p Path. Returns "" or the problem,
/// naming the file.
std::string checkCompileDatabase(const std::string &Path);

/// Why a database entry's `directory` cannot be used ("" when it can).
std::string problemWithDirectory(llvm::StringRef Directory);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_COMPILEDATABASECHECK_H
