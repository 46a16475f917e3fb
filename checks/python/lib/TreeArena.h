//===- TreeArena.h - One parse tree's memory, released at once -*- C++ -*-====//
//
// tree-sitter allocates every node of a tree with its own malloc and frees
// them one by one when the tree is deleted: on a large Python tree about a
// fifth of capture-lint's time went to the allocator (and to growing the
// heap page by page). A parse here runs with a TreeArena in scope: every
// allocation tree-sitter makes on this thread during the parse (its parser,
// its stack, the tree) comes from the arena's large chunks, frees of them
// cost nothing, and the tree's memory goes back in one step when the arena
// is destroyed (never by ts_tree_delete). Allocations outside a parse (tree
// cursors) are ordinary heap blocks.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_PYTHON_TREEARENA_H
#define CAPTURE_LINT_PYTHON_TREEARENA_H

#include <cstddef>
#include <vector>

namespace capture_lint::python {

class TreeArena {
public:
  TreeArena() = default;
  ~TreeArena();
  TreeArena(const TreeArena &) = delete;
  TreeArena &operator=(const TreeArena &) = delete;

  /// Makes tree-sitter allocate from \p A on this thread while alive (and
  /// installs capture-lint's allocator in tree-sitter, once per process,
  /// before its first allocation).
  class Scope {
  public:
    explicit Scope(TreeArena &A);
    ~Scope();
    Scope(const Scope &) = delete;
    Scope &operator=(const Scope &) = delete;

  private:
    TreeArena *Outer;
  };

  /// \p Size bytes, 16-byte aligned.
  void *allocate(std::size_t Size);
  /// Grows the block that ends at the arena's top in place, if there is
  /// room; false otherwise.
  bool growLast(void *Block, std::size_t OldSize, std::size_t NewSize);
  /// Takes back the block that ends at the arena's top (a parse's
  /// short-lived arrays); other blocks stay until the arena goes.
  void releaseLast(void *Block, std::size_t Size);

private:
  std::vector<void *> Chunks;
  /// The newest chunk: [ChunkStart, End), free from Next on.
  char *ChunkStart = nullptr, *Next = nullptr, *End = nullptr;
  std::size_t ChunkSize = 16 * 1024;
};

} // namespace capture_lint::python

#endif
