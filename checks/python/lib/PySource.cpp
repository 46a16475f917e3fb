//===- PySource.cpp - One Python file, parsed with tree-sitter ------------===//

#include "PySource.h"

#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace capture_lint::python {

/// Parses \p Text with its memory in \p Arena: a parser of its own (made
/// and dropped in the arena, so nothing of the parse outlives it elsewhere)
/// and the tree.
static TSTree *parse(llvm::StringRef Text, TreeArena &Arena) {
  TreeArena::Scope InArena(Arena);
  TSParser *Parser = ts_parser_new();
  ts_parser_set_language(Parser, tree_sitter_python());
  TSTree *Tree = ts_parser_parse_string(Parser, nullptr, Text.data(),
                                        static_cast<uint32_t>(Text.size()));
  ts_parser_delete(Parser);
  return Tree;
}

/// The ERROR and MISSING nodes of \p Tree, as byte ranges.
static std::vector<std::pair<unsigned, unsigned>> errorRanges(TSTree *Tree) {
  std::vector<std::pair<unsigned, unsigned>> Ranges;
  std::vector<TSNode> Work = {ts_tree_root_node(Tree)};
  while (!Work.empty()) {
    TSNode N = Work.back();
    Work.pop_back();
    if (!ts_node_has_error(N))
      continue;
    if (ts_node_is_error(N) || ts_node_is_missing(N)) {
      Ranges.push_back({begin(N), end(N)});
      continue;
    }
    for (uint32_t I = 0, E = ts_node_child_count(N); I < E; ++I)
      Work.push_back(ts_node_child(N, I));
  }
  return Ranges;
}

/// Whether the `*` at \p I of \p Text unpacks its operand (`return a,
/// *b`), rather than multiplying or marking keyword-only parameters.
static bool isUnpackingStar(llvm::StringRef Text, size_t I) {
  if (Text[I] != '*' ||
      (I + 1 < Text.size() && llvm::StringRef("*=").contains(Text[I + 1])))
    return false;
  llvm::StringRef Before = Text.take_front(I).rtrim(" \t");
  if (Before.empty() || Before.back() == '*')
    return false;
  llvm::StringRef After = Text.drop_front(I + 1).ltrim(" \t");
  if (After.empty() || llvm::StringRef(",)\n").contains(After.front()))
    return false;
  if (llvm::StringRef(",([{=").contains(Before.back()))
    return true;
  for (llvm::StringRef Keyword : {"return", "yield", "in"})
    if (Before.ends_with(Keyword) &&
        (Before.size() == Keyword.size() ||
         !isalnum(Before[Before.size() - Keyword.size() - 1])))
      return true;
  return false;
}

/// Whether the `or` at \p I of \p Text follows a subscript (`dict[str, int]
/// or None`): in an annotation the grammar reads the subscript as a generic
/// type, which no operator may follow, while Python evaluates any
/// expression there.
static bool isOrAfterSubscript(llvm::StringRef Text, size_t I) {
  if (!Text.drop_front(I).starts_with("or") || I == 0 || I + 2 >= Text.size() ||
      isalnum(Text[I + 2]) || Text[I + 2] == '_' || isalnum(Text[I - 1]) ||
      Text[I - 1] == '_')
    return false;
  llvm::StringRef Before = Text.take_front(I).rtrim(" \t");
  return !Before.empty() && Before.back() == ']';
}

/// Valid Python both tree-sitter-python grammars (0.23, 0.25) reject,
/// where an ERROR can swallow the rest of its function:
///  - an unpacking `*` in an unparenthesized expression list is bound
///    tighter than a binary operator (`return None, *(None,) * n`), where
///    Python binds it to the whole operand;
///  - a subscript in an annotation is a generic type, which `or` may not
///    follow (`x: dict[str, int] or None = None`).
/// Where the tree has errors, on their lines the unpacking stars are read
/// as blanks (the operand is evaluated all the same) and such an `or` as
/// `| ` (a union, what the annotation means), offsets unmoved, and the text
/// is parsed again; the new tree is kept when it has fewer errors.
static TSTree *reparsePatched(llvm::StringRef Text, TSTree *Tree,
                              std::unique_ptr<TreeArena> &Arena) {
  auto Errors = errorRanges(Tree);
  std::string Patched = Text.str();
  bool Changed = false;
  for (auto [B, E] : Errors) {
    size_t LineBegin = Text.rfind('\n', B);
    LineBegin = LineBegin == llvm::StringRef::npos ? 0 : LineBegin + 1;
    size_t LineEnd = std::min(Text.find('\n', E), Text.size());
    for (size_t I = LineBegin; I < LineEnd; ++I) {
      if (isUnpackingStar(Text, I)) {
        Patched[I] = ' ';
        Changed = true;
      } else if (isOrAfterSubscript(Text, I)) {
        Patched.replace(I, 2, "| ");
        Changed = true;
      }
    }
  }
  if (!Changed)
    return Tree;
  auto AgainArena = std::make_unique<TreeArena>();
  TSTree *Again = parse(Patched, *AgainArena);
  if (errorRanges(Again).size() >= Errors.size())
    return Tree;
  Arena = std::move(AgainArena);
  return Again;
}

PySource::PySource(std::string PathIn, std::string TextIn)
    : Path(std::move(PathIn)), Text(std::move(TextIn)) {
  Tree = parse(Text, *Arena);
  if (ts_node_has_error(ts_tree_root_node(Tree)))
    Tree = reparsePatched(Text, Tree, Arena);
  LineStarts.push_back(0);
  for (size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      LineStarts.push_back(unsigned(I + 1));
}

PySource::~PySource() = default; // the arena holds the tree

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

void visitNamedWithParent(
    TSNode Root, llvm::function_ref<VisitNext(TSNode, TSNode Parent)> Step) {
  if (isNull(Root))
    return;
  // The named nodes the cursor is below, innermost last.
  llvm::SmallVector<TSNode, 32> Above;
  TSTreeCursor C = ts_tree_cursor_new(Root);
  for (;;) {
    TSNode N = ts_tree_cursor_current_node(&C);
    bool Named = ts_node_is_named(N);
    VisitNext Next = Named ? Step(N, Above.empty() ? TSNode{} : Above.back())
                           : VisitNext::Skip;
    if (Next == VisitNext::Stop)
      break;
    if (Next == VisitNext::Into && ts_tree_cursor_goto_first_child(&C)) {
      Above.push_back(N);
      continue;
    }
    bool More = false;
    do {
      More = ts_tree_cursor_goto_next_sibling(&C);
      if (!More && !ts_tree_cursor_goto_parent(&C))
        break;
      if (!More)
        Above.pop_back();
    } while (!More);
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
  static const llvm::StringMap<TSFieldId> Ids = [] {
    llvm::StringMap<TSFieldId> Out;
    const TSLanguage *L = tree_sitter_python();
    for (TSFieldId I = 1, E = ts_language_field_count(L); I <= E; ++I)
      if (const char *Field = ts_language_field_name_for_id(L, I))
        Out[Field] = I;
    return Out;
  }();
  auto It = Ids.find(Name);
  return It == Ids.end() ? ts_node_child_by_field_name(N, Name.data(),
                                                       uint32_t(Name.size()))
                         : ts_node_child_by_field_id(N, It->second);
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
