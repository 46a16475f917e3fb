//===- TreeArena.cpp - The memory of one parse tree, released at once -----===//
//
// Every block handed to tree-sitter carries a 16-byte header saying its size
// and whether it lives in an arena or on the heap, so free and realloc know
// what to do whichever arena (or none) is in scope when they are called.
//
//===----------------------------------------------------------------------===//

#include "TreeArena.h"

#include <tree_sitter/api.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>

namespace capture_lint::python {

namespace {
enum class Home : std::size_t { Heap = 0x68656170, Arena = 0x6172656e };

struct alignas(16) Header {
  std::size_t Size;
  Home Where;
};
static_assert(sizeof(Header) == 16, "blocks stay 16-byte aligned");

constexpr std::size_t roundUp(std::size_t N) {
  return (N + 15) & ~std::size_t(15);
}

thread_local TreeArena *Current = nullptr;

Header *headerOf(void *P) { return static_cast<Header *>(P) - 1; }

void *fromHeap(std::size_t Size) {
  auto *H = static_cast<Header *>(std::malloc(sizeof(Header) + Size));
  if (!H)
    return nullptr;
  H->Size = Size;
  H->Where = Home::Heap;
  return H + 1;
}

void *tsMalloc(std::size_t Size) {
  return Current ? Current->allocate(Size) : fromHeap(Size);
}

void *tsCalloc(std::size_t Count, std::size_t Size) {
  std::size_t Bytes = Count * Size;
  void *P = tsMalloc(Bytes);
  if (P)
    std::memset(P, 0, Bytes);
  return P;
}

void tsFree(void *P) {
  if (!P)
    return;
  Header *H = headerOf(P);
  if (H->Where == Home::Heap)
    std::free(H);
  else if (Current)
    Current->releaseLast(P, H->Size);
}

void *tsRealloc(void *P, std::size_t Size) {
  if (!P)
    return tsMalloc(Size);
  Header *H = headerOf(P);
  if (H->Where == Home::Heap) {
    auto *G = static_cast<Header *>(std::realloc(H, sizeof(Header) + Size));
    if (!G)
      return nullptr;
    G->Size = Size;
    return G + 1;
  }
  if (Size <= H->Size)
    return P;
  if (Current && Current->growLast(P, H->Size, Size)) {
    H->Size = Size;
    return P;
  }
  void *Q = tsMalloc(Size);
  if (Q)
    std::memcpy(Q, P, H->Size);
  return Q;
}

void installOnce() {
  static std::once_flag Once;
  std::call_once(
      Once, [] { ts_set_allocator(tsMalloc, tsCalloc, tsRealloc, tsFree); });
}
} // namespace

TreeArena::Scope::Scope(TreeArena &A) : Outer(Current) {
  installOnce();
  Current = &A;
}

TreeArena::Scope::~Scope() { Current = Outer; }

TreeArena::~TreeArena() {
  for (void *C : Chunks)
    std::free(C);
}

void *TreeArena::allocate(std::size_t Size) {
  std::size_t Need = sizeof(Header) + roundUp(Size);
  if (std::size_t(End - Next) < Need) {
    std::size_t Bytes = std::max(ChunkSize, Need);
    char *C = static_cast<char *>(std::malloc(Bytes));
    if (!C)
      return nullptr;
    Chunks.push_back(C);
    ChunkStart = Next = C;
    End = C + Bytes;
    ChunkSize = std::min<std::size_t>(ChunkSize * 2, 1 << 20);
  }
  auto *H = reinterpret_cast<Header *>(Next);
  H->Size = Size;
  H->Where = Home::Arena;
  Next += Need;
  return H + 1;
}

bool TreeArena::growLast(void *Block, std::size_t OldSize,
                         std::size_t NewSize) {
  char *BlockEnd = static_cast<char *>(Block) + roundUp(OldSize);
  if (BlockEnd != Next || static_cast<char *>(Block) < ChunkStart ||
      std::size_t(End - static_cast<char *>(Block)) < roundUp(NewSize))
    return false;
  Next = static_cast<char *>(Block) + roundUp(NewSize);
  return true;
}

void TreeArena::releaseLast(void *Block, std::size_t Size) {
  if (static_cast<char *>(Block) + roundUp(Size) == Next &&
      static_cast<char *>(Block) > ChunkStart)
    Next = reinterpret_cast<char *>(headerOf(Block));
}

} // namespace capture_lint::python
