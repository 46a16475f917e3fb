"""Inserted hazards (issue 23): where a statement can go after a region's
begin and at the start of a callee's body, and the edited copies.

A hazard goes on the line of the token it follows (after a statement's `;`
or `)`, after a body's `{`), so that no line moves: capture-lint reports
physical lines (a `#line` directive does not change them), and the verdict
keys of the other findings stay valid.  A hazard is then known by its line
and column.  An unbraced `if`/`else`/loop body is put in braces first.
"""

import collections
import os
import shutil
import subprocess

CONTROL = ("if", "while", "for", "switch")

Point = collections.namedtuple("Point",
                               "file line col wrap_line wrap_col why")
# An Edit puts text at a 0-based column, in place of the drop characters
# there (a replacement of the same length keeps every column).
Edit = collections.namedtuple("Edit", "file line col text kind drop",
                              defaults=(0,))


def statement_start(scan, i):
    """(index of the first token of the statement holding token i,
    whether that statement is the unbraced body of a control statement,
    index of a control keyword whose header holds i, or None)."""
    toks, pairs = scan.toks, scan.pairs
    k = i - 1
    while k >= 0:
        text = toks[k].text
        if text in (")", "]") and k in pairs:
            before = pairs[k] - 1
            if text == ")" and before >= 0 and toks[before].text in CONTROL:
                return k + 1, True, None
            if text == ")" and _macro_statement_end(scan, k):
                return k + 1, False, None
            k = pairs[k] - 1
            continue
        if text in ("(", "["):
            if k > 0 and toks[k - 1].text in CONTROL:
                return k - 1, False, k - 1
            k -= 1
            continue
        if text in (";", "{", "}"):
            return k + 1, False, None
        if text in ("else", "do"):
            return k + 1, True, None
        if text == ":" and k > 0 and (
                toks[k - 1].text in ("public", "private", "protected",
                                     "default")
                or _is_case_label(toks, k)):
            return k + 1, False, None
        k -= 1
    return 0, False, None


def _is_case_label(toks, colon):
    """Whether the `:` at colon ends a `case X:` label."""
    for k in range(colon - 1, max(colon - 12, -1), -1):
        if toks[k].text == "case":
            return True
        if toks[k].text in (";", "{", "}", "?"):
            return False
    return False


def statement_end(scan, k):
    """Index of the last token of the statement starting at k, or None."""
    toks, pairs = scan.toks, scan.pairs
    if k >= len(toks):
        return None
    text = toks[k].text
    if text == "{":
        return pairs.get(k)
    if text in CONTROL:
        header_close = pairs.get(k + 1)
        if header_close is None:
            return None
        end = statement_end(scan, header_close + 1)
        if (text == "if" and end is not None and end + 1 < len(toks)
                and toks[end + 1].text == "else"):
            end = statement_end(scan, end + 2)
        return end
    if text in ("do", "try", "return", "case", "default", "goto", "break",
                "continue"):
        return None if text != "return" else _plain_end(scan, k)
    return _plain_end(scan, k)


def _plain_end(scan, k):
    """The `;` ending an expression or declaration statement (or the `)` of
    a check macro written without one), or None."""
    toks, pairs = scan.toks, scan.pairs
    while k < len(toks):
        text = toks[k].text
        if text in ("(", "[", "{"):
            close = pairs.get(k)
            if close is None:
                return None
            if text == "(" and _macro_statement_end(scan, close):
                return close
            k = close + 1
            continue
        if text == ";":
            return k
        if text in ("}", ")"):
            return None
        k += 1
    return None


def _macro_statement_end(scan, close):
    """Whether the `)` at close ends a check macro used as a statement
    without a `;` (`CHECK(f())` then the next statement on a later
    line)."""
    toks, pairs = scan.toks, scan.pairs
    opener = pairs.get(close)
    if opener is None or opener == 0 or close + 1 >= len(toks):
        return False
    name, nxt = toks[opener - 1], toks[close + 1]
    return (name.kind == "ident" and macro_like(scan, name.text)
            and nxt.line > toks[close].line
            and (nxt.kind == "ident" or nxt.text in ("}", "{", "::"))
            and nxt.text not in ("and", "or"))


def macro_like(scan, name):
    """Whether a name is written like a macro (all capitals) or defined as
    one in its file."""
    return (name.upper() == name and any(c.isalpha() for c in name)) or any(
        d.name == name for d in scan.src.defines)


def returns(scan, start):
    """Whether the statement starting at token start returns (`return`,
    or a macro whose body begins with `return`)."""
    first = scan.toks[start].text
    if first == "return":
        return True
    return any(d.name == first and d.body and d.body[0].text == "return"
               for d in scan.src.defines)


def begin_returns(scan, i):
    """Whether the statement holding token i returns."""
    start, _, control = statement_start(scan, i)
    return control is None and returns(scan, start)


def after_begin(scan, region):
    """The Point right after the statement that holds the region's begin
    (wrapping an unbraced body in braces), or a Point with why set."""
    i = region.index
    start, unbraced, control = statement_start(scan, i)
    if control is not None:
        start, unbraced, _ = statement_start(scan, control)
        if scan.toks[control].text != "if":
            return nowhere(scan, i, "begin in a %s header"
                            % scan.toks[control].text)
    if returns(scan, start):
        return nowhere(scan, i, "begin in a return statement")
    end = statement_end(scan, start)
    if end is None:
        return nowhere(scan, i, "no statement end found")
    if end > region.end_index and region.kind != "opener-tail":
        return nowhere(scan, i, "the region ends inside the statement that "
                        "begins it")
    return _point_after(scan, end, start if unbraced else None)


def in_macro_body(rel, define, j):
    """The Point after the statement holding token j of a #define body (a
    region written inside a macro: capture-lint reports it at the outermost
    macro's use), or a Point with why set."""
    body, depth = define.body, 0
    for k in range(j, len(body)):
        text = body[k].text
        if text in ("(", "[", "{"):
            depth += 1
        elif text in (")", "]", "}"):
            depth -= 1
        elif text == ";" and depth <= 0:
            t = body[k]
            return Point(rel, t.line, t.col, None, None, "")
    t = body[j]
    return Point(rel, t.line, t.col, None, None,
                 "no statement end in the body of macro %s" % define.name)


def body_start(scan, fn):
    """The Point right after a function body's `{`."""
    return _point_after(scan, fn.open, None)


def _point_after(scan, end, wrap_from):
    """A Point after token end; wrap_from is the first token of an
    unbraced body to put in braces."""
    tok = scan.toks[end]
    wrap = scan.toks[wrap_from] if wrap_from is not None else None
    return Point(scan.rel, tok.line, tok.col + len(tok.text) - 1,
                 wrap.line if wrap else None, wrap.col if wrap else None, "")


def nowhere(scan, i, why):
    """A Point that says why no statement can go after token i."""
    t = scan.toks[i]
    return Point(scan.rel, t.line, t.col, None, None, why)


# ---------------------------------------------------------------- edits


def edits_for(point, stmt, hid):
    """The Edits that insert stmt at point (hid names the hazard)."""
    out = []
    close = ""
    if point.wrap_line is not None:
        out.append(Edit(point.file, point.wrap_line, point.wrap_col - 1,
                        "{ ", None))
        close = " }"
    out.append(Edit(point.file, point.line, point.col,
                    " " + stmt + close, hid))
    return out


def apply_edits(path, edits):
    """Rewrites the file at path (a fresh file, so that a hard link to the
    original is not written through) with the edits applied on their own
    lines; returns {hazard id: (line, 1-based byte column of the call)}."""
    with open(path, "rb") as f:
        lines = f.read().decode("utf-8", errors="surrogateescape").split("\n")
    by_line = collections.defaultdict(list)
    for e in edits:
        by_line[e.line].append(e)
    where = {}
    for line_no, here in by_line.items():
        text = lines[line_no - 1]
        for e in sorted(here, key=lambda e: e.col, reverse=True):
            text = text[:e.col] + e.text + text[e.col + e.drop:]
        lines[line_no - 1] = text
        for e in here:
            if e.kind is None:
                continue
            shift = sum(len(o.text) - o.drop for o in here if o.col < e.col)
            offset = e.col + shift + 1
            prefix = text[:offset].encode("utf-8", errors="surrogateescape")
            where[e.kind] = (line_no, len(prefix) + 1)
    tmp = path + ".capture_lint_tmp"
    with open(tmp, "wb") as f:
        f.write("\n".join(lines).encode("utf-8", errors="surrogateescape"))
    shutil.copymode(path, tmp)
    os.replace(tmp, path)
    return where


def scratch_copy(root, dest):
    """A hard-linked copy of the export (edits replace files, so the
    export itself is never written)."""
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    subprocess.run(["cp", "-al", root, dest], check=True)
