//===- PySource.cpp - One Python file, parsed with tree-sitter ------------===//

#include "PySource.h"

#include <algorithm>
#include <cstring>

namespace capture_lint::python {

PySource::PySource(std::string PathIn, std::string TextIn)
    : Path(std::move(PathIn)), Text(std::move(TextIn)) {
  TSParser *Parser = ts_parser_new();
  ts_parser_set_language(Parser, tree_sitter_python());
  Tree = ts_parser_parse_string(Parser, nullptr, Text.data(),
                                static_cast<uint32_t>(Text.size()));
  ts_parser_delete(Parser);
  LineStarts.push_back(0);
  for (size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      LineStarts.push_back(unsigned(I + 1));
}

PySource::~PySource() {
  if (Tree)
    ts_tree_delete(Tree);
}

TSNode PySource::root() const { return ts_tree_root_node(Tree); }

bool PySource::hasErrors() const { return ts_node_has_error(root()); }

llvm::StringRef PySource::text(TSNode N) const {
  if (isNull(N))
    return "";
  unsigned B = begin(N), E = end(N);
  if (B > Text.size() || E > Text.size() || E < B)
    return "";
  return llvm::StringRef(Text).slice(B, E);
}

unsigned PySource::line(unsigned Offset) const {
  auto It = std::upper_bound(LineStarts.begin(), LineStarts.end(), Offset);
  return unsigned(It - LineStarts.begin());
}

unsigned PySource::column(unsigned Offset) const {
  return Offset - LineStarts[line(Offset) - 1] + 1;
}

llvm::StringRef PySource::lineText(unsigned Line) const {
  if (Line == 0 || Line > LineStarts.size())
    return "";
  unsigned B = LineStarts[Line - 1];
  unsigned E = Line < LineStarts.size() ? LineStarts[Line] : Text.size();
  return llvm::StringRef(Text).slice(B, E).rtrim("\r\n");
}

void visitNamed(TSNode Root, llvm::function_ref<VisitNext(TSNode)> Step) {
  if (isNull(Root))
    return;
  TSTreeCursor C = ts_tree_cursor_new(Root);
  for (;;) {
    TSNode N = ts_tree_cursor_current_node(&C);
    // Tokens (unnamed nodes) hold no named nodes: never entered.
    VisitNext Next = ts_node_is_named(N) ? Step(N) : VisitNext::Skip;
    if (Next == VisitNext::Stop)
      break;
    if (Next == VisitNext::Into && ts_tree_cursor_goto_first_child(&C))
      continue;
    bool More = false;
    do
      More = ts_tree_cursor_goto_next_sibling(&C);
    while (!More && ts_tree_cursor_goto_parent(&C));
    if (!More)
      break;
  }
  ts_tree_cursor_delete(&C);
}

void visitOwnCode(TSNode Body, llvm::function_ref<bool(TSNode)> Visit) {
  visitNamed(Body, [&](TSNode N) {
    if (is(N, "function_definition") || is(N, "class_definition"))
      return VisitNext::Skip;
    return Visit(N) ? VisitNext::Into : VisitNext::Stop;
  });
}

llvm::SmallVector<TSNode, 8> namedChildren(TSNode N) {
  llvm::SmallVector<TSNode, 8> Out;
  if (isNull(N))
    return Out;
  TSTreeCursor C = ts_tree_cursor_new(N);
  if (ts_tree_cursor_goto_first_child(&C))
    do {
      TSNode Child = ts_tree_cursor_current_node(&C);
      if (ts_node_is_named(Child))
        Out.push_back(Child);
    } while (ts_tree_cursor_goto_next_sibling(&C));
  ts_tree_cursor_delete(&C);
  return Out;
}

TSNode field(TSNode N, llvm::StringRef Name) {
  return ts_node_child_by_field_name(N, Name.data(), uint32_t(Name.size()));
}

TSNode stripParens(TSNode N) {
  while (is(N, "parenthesized_expression") && namedCount(N) == 1)
    N = named(N, 0);
  return N;
}

const Suppressions &PySource::suppressions() const {
  if (!Silenced)
    Silenced = std::make_unique<Suppressions>(Text, "#");
  return *Silenced;
}

bool containerUpdate(llvm::StringRef Method) {
  return Method == "append" || Method == "extend" || Method == "insert" ||
         Method == "add" || Method == "appendleft" || Method == "update" ||
         Method == "setdefault";
}

bool nameReference(TSNode I) {
  TSNode P = ts_node_parent(I);
  if (is(P, "attribute") && ts_node_eq(field(P, "attribute"), I))
    return false;
  return !(is(P, "keyword_argument") && ts_node_eq(field(P, "name"), I));
}

} // namespace capture_lint::python
