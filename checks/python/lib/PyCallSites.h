//===- PyCallSites.h - Where a module calls a name, unwalked ----*- C++ -*-===//
//
// The walks that ask "which calls of this module call something named N"
// (a class's constructor calls, for the values its fields hold) would walk
// every module of the program. A call's callee ends in N and is followed,
// past blanks, comments, line continuations and the parentheses around the
// callee, by `(`: a scan of the text finds every such place (and a few in
// strings), and the tree confirms each one. Same calls, in the order a walk
// finds them, at the cost of reading the text once.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_PYTHON_PYCALLSITES_H
#define CAPTURE_LINT_PYTHON_PYCALLSITES_H

#include "PySource.h"

#include "llvm/ADT/StringMap.h"

#include <vector>

namespace capture_lint::python {

class PyCallSites {
public:
  explicit PyCallSites(const PySource &Src);
  /// The calls whose callee, parentheses stripped, is the identifier
  /// \p Name or an attribute `X.Name`, in the order a pre-order walk of the
  /// tree meets them.
  std::vector<TSNode> callsNamed(llvm::StringRef Name) const;

private:
  const PySource &Src;
  /// Offsets of identifiers a `(` follows, by their text.
  llvm::StringMap<std::vector<unsigned>> Candidates;
};

} // namespace capture_lint::python

#endif
