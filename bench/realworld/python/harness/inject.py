"""Inserting `torch.cuda.synchronize()` into copies of the tree.

A hazard goes on the line of the statement it precedes, before it and
separated by `;` (`torch.cuda.synchronize(); y = f(x)`), so line numbers do
not move; after a statement (a `capture_begin(...)` call) it is appended the
same way.  Only before a compound statement (`if`, `for`, `with`, `def`)
does it need a line of its own: the lines below then move by one, and the
file's LineMap translates them back.  Where the module does not bind
`torch` at its top level, `import torch` goes before its first statement
(after the docstring and `from __future__` imports), the same way; but not
in a file where a region opens (that would change how its `torch.cuda.graph`
resolves): there the hazard is `import torch; torch.cuda.synchronize()`.
"""

import ast
import os
import shutil
import warnings

from .regions import COMPOUND

HAZARD = "torch.cuda.synchronize()"


class Hazard:
    """One inserted hazard: where it goes (original coordinates), where it
    ended up in the copy, and the roles it plays (region, depth)."""

    def __init__(self, rel, line, col, mode, text=HAZARD, sep="; "):
        self.text = text        # what is inserted
        self.sep = sep          # between it and the statement
        self.rel = rel
        self.line = line        # original line of the anchor statement
        self.col = col          # byte column of the anchor (0-based)
        self.mode = mode        # "before", "after" or "newline"
        self.new_line = None    # line of the hazard call in the copy
        self.new_col = None     # 1-based column of the hazard call
        self.roles = []         # (region key, depth, callee name)

    def anchor(self):
        """Identity of the insertion point."""
        return (self.rel, self.line, self.col, self.mode)


def hazard_before(stmt, rel):
    """A Hazard placed before a statement."""
    if isinstance(stmt, COMPOUND):
        first = min([stmt.lineno] + [d.lineno for d in
                                     getattr(stmt, "decorator_list", [])])
        return Hazard(rel, first, stmt.col_offset, "newline")
    return Hazard(rel, stmt.lineno, stmt.col_offset, "before")


def hazard_lambda(lam, rel):
    """The hazard at the start of a lambda's body, and the edit that closes
    the tuple after it: `(torch.cuda.synchronize(), BODY)[-1]`."""
    body = lam.body
    h = Hazard(rel, body.lineno, body.col_offset, "before", sep="")
    h.lam = True
    end = Hazard(rel, body.end_lineno, body.end_col_offset, "after",
                 text=")[-1]", sep="")
    return h, end


def hazard_after(stmt, rel):
    """A Hazard appended after a simple statement."""
    return Hazard(rel, stmt.end_lineno, stmt.end_col_offset, "after")


class LineMap:
    """Copy line -> original line for a file with inserted lines."""

    def __init__(self, inserted):
        self.inserted = sorted(inserted)  # copy line numbers of new lines

    def original(self, line):
        """The original line a copy line stands for (an inserted line maps to
        the line it precedes)."""
        return line - sum(1 for n in self.inserted if n < line)


def import_edit(mod):
    """A Hazard-like edit that binds `torch` at the module's top level."""
    body = mod.tree.body
    i = 0
    while i < len(body) and (
            (i == 0 and isinstance(body[0], ast.Expr)
             and isinstance(body[0].value, ast.Constant)
             and isinstance(body[0].value.value, str))
            or (isinstance(body[i], ast.ImportFrom)
                and body[i].module == "__future__")):
        i += 1
    # A module with nothing but a docstring and __future__ imports holds no
    # hazard, so i < len(body) wherever this is asked for.
    h = hazard_before(body[i], mod.rel)
    h.text = "import torch"
    return h


def apply_file(src_bytes, edits):
    """The file's bytes with the edits inserted; sets each edit's
    new_line/new_col and returns (bytes, LineMap)."""
    lines = src_bytes.split(b"\n")
    by_line = {}
    for h in edits:
        by_line.setdefault(h.line, []).append(h)
    out, inserted = [], []
    for i, raw in enumerate(lines, start=1):
        hs = by_line.get(i, [])
        for h in hs:
            if h.mode == "newline":
                out.append(raw[:h.col] + h.text.encode() + b"\n")
                inserted.append(len(out))
                h.new_line, h.new_col = len(out), h.col + 1
        for h in sorted((h for h in hs if h.mode != "newline"),
                        key=lambda h: -h.col):
            sep = h.sep.encode()
            if h.mode == "before":
                raw = raw[:h.col] + h.text.encode() + sep + raw[h.col:]
            else:
                raw = raw[:h.col] + sep + h.text.encode() + raw[h.col:]
        line_no = len(out) + 1
        for h in hs:
            if h.mode != "newline":
                h.new_line = line_no
        out.append(raw + (b"\n" if i < len(lines) else b""))
    set_columns(b"".join(out), edits)
    return b"".join(out), LineMap(inserted)


def set_columns(data, edits):
    """Sets the 1-based column of each inline edit in the copy."""
    lines = data.split(b"\n")
    for h in edits:
        if h.mode == "newline":
            continue
        raw = lines[h.new_line - 1]
        start = h.col if h.mode == "before" else h.col + len(h.sep)
        needle = "synchronize()" if "synchronize" in h.text else h.text
        pos = raw.find(needle.encode(), start)
        h.new_col = (pos if pos >= 0 else start) + 1


def parses(data):
    """Whether Python parses the bytes."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(data)
        return True
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False


def write_copy(project, src_root, dest, hazards, region_files):
    """A copy of src_root at dest (hard links) with the hazards inserted;
    region_files are the files where regions open.  Returns ({rel:
    LineMap}, [hazards whose file would not parse])."""
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    shutil.copytree(src_root, dest, copy_function=os.link)
    per_file = {}
    for h in hazards:
        per_file.setdefault(h.rel, []).append(h)
    maps, broken = {}, []
    for rel, hs in per_file.items():
        path = os.path.join(src_root, rel)
        with open(path, "rb") as f:
            data = f.read()
        mod = project.get(rel)
        for h in hs:
            h.text = HAZARD
            if getattr(h, "lam", False):
                h.text = "(" + HAZARD + ", "
        edits = hs + [h.closer for h in hs if getattr(h, "closer", None)]
        if rel in region_files and not mod.binds_torch():
            for h in hs:
                h.text = ("(__import__('torch').cuda.synchronize(), "
                          if getattr(h, "lam", False)
                          else "import torch; " + HAZARD)
        elif not mod.binds_torch():
            edits = edits + [import_edit(mod)]
        new, lmap = apply_file(data, edits)
        if not parses(new):
            broken += hs
            continue
        os.unlink(os.path.join(dest, rel))
        with open(os.path.join(dest, rel), "wb") as f:
            f.write(new)
        maps[rel] = lmap
    return maps, broken
