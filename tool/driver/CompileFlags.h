//===- CompileFlags.h - Compile commands clang can parse --------*- C++ -*-===//
//
// capture-lint parses sources with clang, but CUDA projects are built with
// nvcc and HIP projects with hipcc. This file turns a compile command from a
// compile database into one clang accepts (response files (`@file`) and
// nvcc's --options-file expanded, nvcc-only flags dropped or translated,
// -Xcompiler unpacked, host-only analysis requested) and builds working
// default commands for files given without a database.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOL_COMPILEFLAGS_H
#define CAPTURE_LINT_TOOL_COMPILEFLAGS_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace capture_lint {

/// Where the tool finds what it adds to every command.
struct ToolPaths {
  std::string ResourceDir; // clang's builtin headers
  std::string CompatDir;   // CUDA 13 compat headers shipped with the tool
  std::string CudaPath;    // empty when no CUDA install was found
};

/// Finds CUDA: $CUDA_HOME, $CUDA_PATH, nvcc on PATH, /usr/local/cuda.
std::string detectCudaPath();

/// Whether \p Compiler (a path or a name) is nvcc.
bool isNvcc(llvm::StringRef Compiler);

/// The paths for the executable started as \p Argv0: the compat headers
/// installed beside it (share/capture-lint/compat), else the source tree's.
ToolPaths findToolPaths(const char *Argv0);

enum class SourceLanguage { Cuda, Hip, Cxx, Unknown };
SourceLanguage languageOfFile(llvm::StringRef File);

/// Whether \p File has a header's extension (.h, .hh, .hpp, .hxx, .cuh,
/// .inl, .inc, .tcc) or none (the standard library's headers): never a
/// translation unit of its own.
bool hasHeaderExtension(llvm::StringRef File);

struct TranslatedCommand {
  std::vector<std::string> Args; // argv, starting with the compiler
  std::vector<std::string> Warnings;
  /// Argument files the command names (`@file`, nvcc's --options-file) that
  /// could not be read, each with the reason: their flags are missing.
  std::vector<std::string> UnreadableArgumentFiles;
};

/// Translates a compile command (argv) for \p File as clang-tidy will run
/// it. \p Directory resolves relative `@file` and --options-file paths. The
/// driver is clang++, or clang for a C compiler's command (gcc, cc, clang).
TranslatedCommand translateCommand(const std::vector<std::string> &Command,
                                   llvm::StringRef File,
                                   llvm::StringRef Directory,
                                   const ToolPaths &Paths);

/// The default command for a file given without a database or `--` flags;
/// nullopt when the extension is not one capture-lint knows.
std::optional<std::vector<std::string>> defaultCommand(llvm::StringRef File,
                                                       const ToolPaths &Paths);

/// What capture-lint adds to the command of a file in \p Lang (Cuda or
/// Hip), without clang's resource directory (the tool that takes them has
/// its own): for clang-tidy running the plugin.
std::vector<std::string> addedFlags(SourceLanguage Lang,
                                    const ToolPaths &Paths);

/// The command for a file given with explicit flags after `--`.
std::vector<std::string> explicitCommand(const std::vector<std::string> &Flags,
                                         llvm::StringRef File,
                                         const ToolPaths &Paths);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOL_COMPILEFLAGS_H
