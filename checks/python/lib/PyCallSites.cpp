//===- PyCallSites.cpp - Where a module calls a name, without walking it --===//

#include "PyCallSites.h"

#include <algorithm>

namespace capture_lint::python {

static bool identifierChar(unsigned char C) {
  return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') ||
         (C >= '0' && C <= '9') || C == '_' || C >= 0x80;
}

/// The offset of the first character after \p I that is not a blank, a
/// newline, a line continuation, a comment or a `)`.
static size_t skipToCallParen(llvm::StringRef Text, size_t I) {
  while (I < Text.size()) {
    char C = Text[I];
    if (C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == '\f' ||
        C == '\\' || C == ')') {
      ++I;
    } else if (C == '#') {
      size_t NL = Text.find('\n', I);
      I = NL == llvm::StringRef::npos ? Text.size() : NL;
    } else {
      break;
    }
  }
  return I;
}

PyCallSites::PyCallSites(const PySource &S) : Src(S) {
  llvm::StringRef Text = S.text();
  size_t I = 0;
  while (I < Text.size()) {
    unsigned char C = Text[I];
    if (!identifierChar(C)) {
      ++I;
      continue;
    }
    size_t Begin = I;
    while (I < Text.size() && identifierChar(Text[I]))
      ++I;
    if (C >= '0' && C <= '9')
      continue; // a number
    size_t After = skipToCallParen(Text, I);
    if (After < Text.size() && Text[After] == '(')
      Candidates[Text.slice(Begin, I)].push_back(unsigned(Begin));
  }
}

/// The call whose callee is the identifier \p Id (or an attribute ending
/// in it), parentheses stripped; null otherwise.
static TSNode callOfCallee(TSNode Id) {
  TSNode Callee = Id, P = ts_node_parent(Id);
  if (is(P, "attribute") && ts_node_eq(field(P, "attribute"), Id)) {
    Callee = P;
    P = ts_node_parent(P);
  }
  while (is(P, "parenthesized_expression")) {
    Callee = P;
    P = ts_node_parent(P);
  }
  if (is(P, "call") && ts_node_eq(field(P, "function"), Callee))
    return P;
  return TSNode{};
}

std::vector<TSNode> PyCallSites::callsNamed(llvm::StringRef Name) const {
  std::vector<TSNode> Calls;
  auto It = Candidates.find(Name);
  if (It == Candidates.end())
    return Calls;
  TSNode Root = Src.root();
  for (unsigned Offset : It->second) {
    unsigned End = Offset + unsigned(Name.size());
    TSNode Id = ts_node_named_descendant_for_byte_range(Root, Offset, End);
    if (!is(Id, "identifier") || begin(Id) != Offset || end(Id) != End)
      continue;
    TSNode Call = callOfCallee(Id);
    if (!isNull(Call))
      Calls.push_back(Call);
  }
  std::sort(Calls.begin(), Calls.end(), walkedBefore);
  return Calls;
}

} // namespace capture_lint::python
