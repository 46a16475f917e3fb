//===- ToolkitVersion.h - The CUDA version the headers declare --*- C++ -*-===//
//
// Library behaviour under capture depends on the toolkit (cuBLAS allocates
// its workspace as graph memory nodes from CUDA 12.2 on). The version is the
// one the translation unit's own headers declare, CUDART_VERSION (or the
// driver header's CUDA_VERSION), read from the preprocessor after parsing.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TOOLKITVERSION_H
#define CAPTURE_LINT_TOOLKITVERSION_H

#include <optional>

namespace clang {
class Preprocessor;
} // namespace clang

namespace capture_lint {

/// 12020 for CUDA 12.2; nullopt when no CUDA header defined it.
std::optional<int> cudaVersionOf(const clang::Preprocessor &PP);

} // namespace capture_lint

#endif // CAPTURE_LINT_TOOLKITVERSION_H
