//===- TestAST.h - Building small ASTs for unit tests -----------*- C++ -*-===//
//
// A prelude declaring the capture API (the catalog's real names) and a
// helper that parses a snippet, so region and guard tests read as code.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_TESTS_TESTAST_H
#define CAPTURE_LINT_TESTS_TESTAST_H

#include "capture_lint/Catalog.h"
#include "capture_lint/RegionFinder.h"
#include "clang/Frontend/ASTUnit.h"
#include <memory>
#include <string>

namespace capture_lint::test {

/// Declarations of cudaStreamBeginCapture & co., plus `void mark(int)`, the
/// probe the tests place where they ask "is this inside a region?".
extern const char *Prelude;

std::unique_ptr<clang::ASTUnit> parse(const std::string &Code);

/// The function named \p Name in \p AST.
const clang::FunctionDecl *function(clang::ASTUnit &AST, llvm::StringRef Name);

/// Runs the region finder on \p FD and calls \p Visit with N and the state
/// at every `mark(N)` call.
void forEachMark(clang::ASTUnit &AST, const clang::FunctionDecl *FD,
                 llvm::function_ref<void(int, const FlowState &)> Visit);

/// The built-in catalog, loaded once.
const Catalog &builtinCatalog();

} // namespace capture_lint::test

#endif
