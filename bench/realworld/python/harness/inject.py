"""Inserting `torch.cuda.synchronize()` into copies of the tree.

A hazard goes on the line of the statement it precedes, before it and
separated by `;` (`torch.cuda.synchronize(); y = f(x)`), so line numbers do
not move; after a statement (a `capture_begin(...)` call) it is appended the
same way.  Only before a compound statement (`if`, `for`, `with`, `def`)
does it need a line of its own: the lines below then move by one, and the
file's LineMap translates them back.  Where the module does not bind
`torch`, the hazard is `import torch; torch.cuda.synchronize()`.
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

    def __init__(self, rel, line, col, mode):
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


def apply_file(src_bytes, hazards, binds_torch):
    """The file's bytes with the hazards inserted; sets each hazard's
    new_line/new_col and returns (bytes, LineMap)."""
    text = HAZARD if binds_torch else "import torch; " + HAZARD
    lines = src_bytes.split(b"\n")
    by_line = {}
    for h in hazards:
        by_line.setdefault(h.line, []).append(h)
    out, inserted = [], []
    for i, raw in enumerate(lines, start=1):
        hs = by_line.get(i, [])
        for h in hs:
            if h.mode == "newline":
                indent = raw[:h.col]
                out.append(indent + text.encode() + b"\n")
                inserted.append(len(out))
                h.new_line, h.new_col = len(out), h.col + 1 + (
                    0 if binds_torch else len("import torch; "))
        for h in sorted((h for h in hs if h.mode != "newline"),
                        key=lambda h: -h.col):
            if h.mode == "before":
                raw = raw[:h.col] + text.encode() + b"; " + raw[h.col:]
            else:
                raw = raw[:h.col] + b"; " + text.encode() + raw[h.col:]
        line_no = len(out) + 1
        for h in hs:
            if h.mode != "newline":
                h.new_line = line_no
        out.append(raw + (b"\n" if i < len(lines) else b""))
    set_columns(b"".join(out), hazards, binds_torch)
    return b"".join(out), LineMap(inserted)


def set_columns(data, hazards, binds_torch):
    """Sets the 1-based column of each inline hazard call in the copy."""
    lines = data.split(b"\n")
    needle = HAZARD.encode()
    for h in hazards:
        if h.mode == "newline":
            continue
        raw = lines[h.new_line - 1]
        start = h.col if h.mode == "before" else h.col + 2
        if not binds_torch:
            start += len("import torch; ")
        pos = raw.find(needle, start)
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


def write_copy(project, src_root, dest, hazards):
    """A copy of src_root at dest (hard links) with the hazards inserted.
    Returns ({rel: LineMap}, [hazards whose file would not parse])."""
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
        mod = project.modules[rel]
        new, lmap = apply_file(data, hs, mod.binds_torch())
        if not parses(new):
            broken += hs
            continue
        os.unlink(os.path.join(dest, rel))
        with open(os.path.join(dest, rel), "wb") as f:
            f.write(new)
        maps[rel] = lmap
    return maps, broken
