//===- PySource.h - One Python file, parsed with tree-sitter ----*- C++ -*-===//
//
// A parsed file owns its text and its tree-sitter tree, maps byte offsets to
// lines and columns, and answers the few questions the analysis asks of
// nodes (kind, field, text). tree-sitter is error-tolerant: a half-typed file
// still yields a tree whose well-formed parts are analysed.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_PYTHON_PYSOURCE_H
#define CAPTURE_LINT_PYTHON_PYSOURCE_H

#include "TreeArena.h"
#include "capture_lint/Suppressions.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <tree_sitter/api.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace capture_lint::python {

class PySource {
public:
  /// Parses \p Text; never fails (errors become ERROR nodes).
  PySource(std::string Path, std::string Text);
  ~PySource();
  PySource(const PySource &) = delete;
  PySource &operator=(const PySource &) = delete;

  const std::string &path() const { return Path; }
  llvm::StringRef text() const { return Text; }
  TSNode root() const;
  bool hasErrors() const;

  llvm::StringRef text(TSNode N) const;
  unsigned line(unsigned Offset) const;   // 1-based
  unsigned column(unsigned Offset) const; // 1-based, in bytes
  llvm::StringRef lineText(unsigned Line) const;
  /// The number of lines (for the speed benchmark).
  unsigned lineCount() const { return unsigned(LineStarts.size()); }
  /// Its NOLINT and noqa comments, read on first use.
  const Suppressions &suppressions() const;

private:
  std::string Path, Text;
  std::unique_ptr<TreeArena> Arena = std::make_unique<TreeArena>();
  TSTree *Tree = nullptr; // in Arena: never ts_tree_delete'd
  std::vector<unsigned> LineStarts;
  mutable std::unique_ptr<Suppressions> Silenced;
};

// Node helpers: thin, allocation-free wrappers over the tree-sitter C API.
inline bool isNull(TSNode N) { return ts_node_is_null(N); }
inline llvm::StringRef kind(TSNode N) {
  return isNull(N) ? "" : ts_node_type(N);
}
/// Whether \p N is of kind \p K (a literal: compared without measuring
/// either string, the walks' most frequent question).
inline bool is(TSNode N, const char *K) {
  return !isNull(N) && std::strcmp(ts_node_type(N), K) == 0;
}
/// The child of \p N in field \p Name (its id looked up in a table made
/// once, not by a scan of the grammar's field names).
TSNode field(TSNode N, llvm::StringRef Name);
inline unsigned begin(TSNode N) { return ts_node_start_byte(N); }
inline unsigned end(TSNode N) { return ts_node_end_byte(N); }
inline unsigned namedCount(TSNode N) { return ts_node_named_child_count(N); }
/// The \p I th named child: tree-sitter walks to it from the first child, so
/// a loop over the children uses namedChildren.
inline TSNode named(TSNode N, unsigned I) { return ts_node_named_child(N, I); }
/// Whether identifier \p I names a variable: not the name of an attribute
/// (`x.name`) or of a keyword argument (`f(name=x)`).
bool nameReference(TSNode I);
/// Whether \p Method adds to or changes a Python container in place
/// (`append`, `extend`, `insert`, `add`, `appendleft`, `update`,
/// `setdefault`).
bool containerUpdate(llvm::StringRef Method);
/// \p N's named children in order (none for a null node), read in one pass.
llvm::SmallVector<TSNode, 8> namedChildren(TSNode N);
/// Skips parentheses around an expression.
TSNode stripParens(TSNode N);
/// Whether a preorder walk meets \p A before \p B (an enclosing node, which
/// starts no later and ends later, first): the order to sort nodes found
/// without a walk in.
inline bool walkedBefore(TSNode A, TSNode B) {
  if (begin(A) != begin(B))
    return begin(A) < begin(B);
  return end(A) > end(B);
}
/// What a visit does after a node: go into its children, skip them, or stop.
enum class VisitNext { Into, Skip, Stop };
/// Visits \p Root and the named nodes below it in source order (preorder),
/// with one cursor (no allocation per node); \p Step says where to go next.
void visitNamed(TSNode Root, llvm::function_ref<VisitNext(TSNode)> Step);
/// The same, telling \p Step each node's named parent too (ts_node_parent
/// would descend from the root again for each node). \p Root's parent is a
/// null node.
void visitNamedWithParent(
    TSNode Root, llvm::function_ref<VisitNext(TSNode, TSNode Parent)> Step);
/// Visits \p Body and every node below it that runs with it: not the
/// bodies of functions and classes defined there (lambdas are visited).
/// Stops when \p Visit returns false.
void visitOwnCode(TSNode Body, llvm::function_ref<bool(TSNode)> Visit);

/// The Python grammar (tree-sitter-python, compiled in).
extern "C" const TSLanguage *tree_sitter_python(void);

} // namespace capture_lint::python

#endif // CAPTURE_LINT_PYTHON_PYSOURCE_H
