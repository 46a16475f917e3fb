"""Guesses at why a region was not recognised or a hazard not found, printed
beside each miss so a human knows where to look first (they are hints, not
verdicts: the causes known so far, README.md "Misses by cause")."""

import ast
import os

from .project import FUNC_TYPES, walk_body


def region_hint(project, r):
    """A short reason a region may not be recognised, or ''."""
    hints = []
    if r.kind == "graph-ctx":
        hints.append("entered through a variable holding torch.cuda.graph")
    if r.kind in ("helper-call", "begin-end"):
        hints.append("opened by the project's own capture helper")
    mod = project.get(r.rel)
    opener = enclosing_function(mod, r.line) if mod else None
    if opener is not None and opener[1] > 1:
        hints.append("in a function nested in another")
    if mod is not None and not mod.binds_torch() and r.kind in (
            "graph", "graph-ctx", "capture-begin", "graphed"):
        hints.append("torch imported only inside a function")
    return "; ".join(hints)


def enclosing_function(mod, line):
    """(innermost FunctionDef, nesting depth) around a line, or None."""
    best, depth = None, 0

    def visit(node, d):
        nonlocal best, depth
        for child in ast.iter_child_nodes(node):
            if isinstance(child, FUNC_TYPES) and \
                    child.lineno <= line <= child.end_lineno:
                if d + 1 > depth:
                    best, depth = child, d + 1
                visit(child, d + 1)
            elif hasattr(child, "lineno") and \
                    child.lineno <= line <= getattr(child, "end_lineno", 0):
                visit(child, d)
            elif isinstance(child, ast.ClassDef):
                visit(child, d)
    visit(mod.tree, 0)
    return (best, depth) if best else None


def hazard_hint(project, caller, callee):
    """A short reason a callee's hazard may not be found, or ''."""
    callee_rel = callee.mod.rel
    names = {callee.funcs[-1].name}
    if callee.cls is not None:
        names.add(callee.cls.name)
    hints = []
    funcs = caller.funcs
    local = set()
    for f in funcs:
        for n in walk_body(f.body):
            if isinstance(n, (ast.Import, ast.ImportFrom)):
                local.update((a.asname or a.name).split(".")[0]
                             for a in n.names)
    if any(n in local and n not in caller.mod.top_imports for n in names):
        hints.append("imported inside the calling function")
    if callee_rel != caller.mod.rel and not in_package(project,
                                                       caller.mod.rel):
        hints.append("caller's directory has no __init__.py")
    return "; ".join(hints)


def in_package(project, rel):
    """Whether every directory from the file up to its top-level package
    has an __init__.py (a regular package, not a namespace one)."""
    d = os.path.dirname(rel)
    if not d:
        return True
    return os.path.exists(os.path.join(project.root, d, "__init__.py"))
