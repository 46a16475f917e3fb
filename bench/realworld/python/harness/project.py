"""An exported tree of .py files as a program: modules, their imports, and
the resolution of simple names and calls to the functions the tree defines.

Only what a reader can resolve at a glance is resolved: module-level
functions, functions imported from the tree (`from .x import f`,
`import pkg.x as x; x.f()`), `self.method` and `super().method` through the
enclosing class and its bases in the tree, `Cls.method`, and functions
nested in the enclosing function.  Nothing is inferred across calls.
"""

import ast
import os
import warnings

TORCH_GRAPH = {"torch.cuda.graph", "torch.cuda.graphs.graph"}
TORCH_GRAPHED = {"torch.cuda.make_graphed_callables",
                 "torch.cuda.graphs.make_graphed_callables"}
FUNC_TYPES = (ast.FunctionDef, ast.AsyncFunctionDef)
SCOPE_TYPES = FUNC_TYPES + (ast.ClassDef, ast.Lambda)


class Module:
    """One parsed file: its dotted name, imports and top-level names."""

    def __init__(self, rel, text, tree):
        self.rel = rel
        self.text = text
        self.lines = text.splitlines(keepends=True)
        self.tree = tree
        self.name = module_name(rel)
        self.package = (self.name if rel.endswith("__init__.py")
                        else self.name.rpartition(".")[0])
        self.imports = {}
        self.defs = {}
        self.classes = {}
        for node in tree.body:
            if isinstance(node, FUNC_TYPES):
                self.defs[node.name] = node
            elif isinstance(node, ast.ClassDef):
                self.classes[node.name] = node
        self.top_imports = {}
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                self._add_import(node)
        saved, self.imports = self.imports, self.top_imports
        for node in tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                self._add_import(node)
        self.top_imports, self.imports = self.imports, saved

    def _add_import(self, node):
        """Records the names an import statement binds."""
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    self.imports[a.asname] = a.name
                else:
                    head = a.name.split(".")[0]
                    self.imports.setdefault(head, head)
            return
        base = node.module or ""
        if node.level:
            parts = self.package.split(".") if self.package else []
            parts = parts[:len(parts) - (node.level - 1)] if node.level > 1 \
                else parts
            base = ".".join(p for p in parts + [base] if p)
        for a in node.names:
            if a.name != "*":
                self.imports[a.asname or a.name] = \
                    (base + "." + a.name) if base else a.name

    def binds_torch(self):
        """Whether `torch` names the torch package at the module's top level
        (an import in a function, or under `if`/`try`, does not count)."""
        return self.top_imports.get("torch") == "torch"


def module_name(rel):
    """The dotted module name of a path relative to the export root."""
    parts = rel[:-3].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def parse_file(path, rel):
    """The Module for a file, or None when Python cannot parse it."""
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text, filename=rel)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return Module(rel, text, tree)


class Project:
    """Every .py file of an exported tree, indexed by dotted-name suffix and
    parsed when first asked for (most files are never needed)."""

    def __init__(self, root):
        self.root = root
        self.rels = sorted(py_files(root))
        self.parsed = {}
        self.unparsed = []
        self.by_suffix = {}
        for rel in self.rels:
            parts = module_name(rel).split(".")
            for i in range(len(parts)):
                self.by_suffix.setdefault(".".join(parts[i:]), []).append(rel)

    def get(self, rel):
        """The Module of a file (parsed once), or None if it does not
        parse."""
        if rel not in self.parsed:
            mod = parse_file(os.path.join(self.root, rel), rel)
            self.parsed[rel] = mod
            if mod is None:
                self.unparsed.append(rel)
        return self.parsed[rel]

    def text(self, rel):
        """The text of a file, without parsing it."""
        if self.parsed.get(rel) is not None:
            return self.parsed[rel].text
        with open(os.path.join(self.root, rel), encoding="utf-8",
                  errors="surrogateescape") as f:
            return f.read()

    def modules_mentioning(self, words):
        """The parsed Modules whose text contains one of the words."""
        for rel in self.rels:
            text = self.text(rel)
            if any(w in text for w in words):
                mod = self.get(rel)
                if mod is not None:
                    yield mod

    def find_module(self, dotted, near):
        """The module of the tree a dotted name denotes, preferring the one
        whose path shares the longest prefix with module `near`."""
        cands = self.by_suffix.get(dotted)
        if not cands:
            return None
        if len(cands) > 1:
            cands = sorted(cands, key=lambda r: (-common_prefix(r, near.rel),
                                                 len(r)))
        return self.get(cands[0])

    def lookup(self, mod, dotted, depth=0):
        """What a dotted name (module.attr...) denotes in the tree: a
        ('module', Module), ('def', Module, node) or ('class', Module, node),
        or None."""
        if depth > 4:
            return None
        parts = dotted.split(".")
        for i in range(len(parts), 0, -1):
            target = self.find_module(".".join(parts[:i]), mod)
            if target is None:
                continue
            rest = parts[i:]
            if not rest:
                return ("module", target)
            return self.member(target, rest, depth)
        return None

    def member(self, mod, rest, depth):
        """A name (and attributes) looked up in a module's top level."""
        name = rest[0]
        if name in mod.defs and len(rest) == 1:
            return ("def", mod, mod.defs[name])
        if name in mod.classes:
            cls = mod.classes[name]
            if len(rest) == 1:
                return ("class", mod, cls)
            if len(rest) == 2:
                found = self.method(mod, cls, rest[1])
                return ("def",) + found if found else None
            return None
        if name in mod.imports:
            return self.lookup(mod, ".".join([mod.imports[name]] + rest[1:]),
                               depth + 1)
        return None

    def resolve_name(self, mod, name):
        """What a module-level name denotes: a def, class or module."""
        if name in mod.defs:
            return ("def", mod, mod.defs[name])
        if name in mod.classes:
            return ("class", mod, mod.classes[name])
        if name in mod.imports:
            return self.lookup(mod, mod.imports[name])
        return None

    def bases(self, mod, cls):
        """The base classes of cls that the tree defines, as (Module, node)."""
        out = []
        for b in cls.bases:
            dotted = dotted_name(b)
            if not dotted:
                continue
            head, _, rest = dotted.partition(".")
            found = self.resolve_name(mod, head)
            if found and rest and found[0] == "module":
                found = self.member(found[1], rest.split("."), 0)
            if found and found[0] == "class":
                out.append((found[1], found[2]))
        return out

    def method(self, mod, cls, name, seen=None):
        """(Module, ClassDef, FunctionDef) of a method in cls or its bases."""
        seen = seen if seen is not None else set()
        if id(cls) in seen:
            return None
        seen.add(id(cls))
        for node in cls.body:
            if isinstance(node, FUNC_TYPES) and node.name == name:
                return (mod, cls, node)
        for bmod, bcls in self.bases(mod, cls):
            found = self.method(bmod, bcls, name, seen)
            if found:
                return found
        return None


def py_files(root):
    """Paths of the .py files under root, relative to it."""
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for f in filenames:
            if f.endswith(".py"):
                yield os.path.relpath(os.path.join(dirpath, f), root)


def common_prefix(a, b):
    """The number of leading path components a and b share."""
    n = 0
    for x, y in zip(a.split("/"), b.split("/")):
        if x != y:
            break
        n += 1
    return n


def dotted_name(node):
    """`a.b.c` for a Name/Attribute chain, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def qualified(mod, node):
    """The dotted name an expression denotes through the module's imports
    (`tc.graph` -> `torch.cuda.graph` after `import torch.cuda as tc`)."""
    dotted = dotted_name(node)
    if not dotted:
        return None
    head, _, rest = dotted.partition(".")
    head = mod.imports.get(head, head)
    return head + ("." + rest if rest else "")


def walk_body(stmts, scopes=False):
    """Every node under the statements, in source order, without entering
    nested functions, classes or lambdas (code that does not run there);
    with scopes, those nested definitions are yielded but not entered."""
    stack = list(reversed(stmts))
    while stack:
        node = stack.pop()
        if isinstance(node, SCOPE_TYPES):
            if scopes:
                yield node
            continue
        yield node
        stack.extend(reversed(list(ast.iter_child_nodes(node))))
