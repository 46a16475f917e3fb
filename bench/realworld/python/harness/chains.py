"""Calls below a region: the functions of the tree a region calls, and the
calls they make, to three levels.

For each region the first call (in source order) that starts the longest
chain of resolvable calls is taken (at most three deep); the hazard goes at
the start of each function of that chain, one per depth.  A function whose
body does not run when it is called (a generator, a coroutine, a context
manager) is not taken, nor the function the region itself is in, nor a
call the analysis is right to skip because it never runs under capture:
after `if torch.cuda.is_current_stream_capturing(): return ...`, in the
body of `if not torch.cuda.is_current_stream_capturing():` (or of a flag
assigned from it), or in the else of `if torch.cuda.is_current_stream_capturing():`.
"""

import ast

from .project import SCOPE_TYPES, walk_body
from .resolve import resolve_function

MAX_DEPTH = 3


def body_runs_on_call(func):
    """Whether calling the function runs its body (not a generator or a
    coroutine)."""
    if isinstance(func, ast.AsyncFunctionDef):
        return False
    return not any(isinstance(n, (ast.Yield, ast.YieldFrom, ast.Await))
                   for n in walk_body(func.body))


CAPTURING = "is_current_stream_capturing"


def capture_flags(stmts):
    """Names assigned from a capturing test in the statements."""
    return {t.id for n in walk_body(stmts) if isinstance(n, ast.Assign)
            and CAPTURING in ast.unparse(n.value)
            for t in n.targets if isinstance(t, ast.Name)}


def capture_test(test, flags):
    """None if test is not a capturing test, else True when it holds under
    capture (`capturing()`, `flag`) and False when negated."""
    neg = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    inner = test.operand if neg else test
    text = ast.unparse(inner)
    if (isinstance(inner, ast.Call) and CAPTURING in text) or (
            isinstance(inner, ast.Name) and inner.id in flags):
        return not neg
    return None


def exits(block):
    """Whether a block always leaves the function (ends in return/raise)."""
    return bool(block) and isinstance(block[-1], (ast.Return, ast.Raise))


def live_calls(stmts, flags):
    """The calls of the statements that run under capture, in source order
    (not entering nested definitions)."""
    for stmt in stmts:
        if isinstance(stmt, SCOPE_TYPES):
            continue
        if not isinstance(stmt, ast.stmt):  # a lambda's body
            yield from (n for n in walk_body([stmt])
                        if isinstance(n, ast.Call))
            continue
        holds = capture_test(stmt.test, flags) \
            if isinstance(stmt, ast.If) else None
        if holds is not None:
            taken = stmt.body if holds else stmt.orelse
            yield from live_calls(taken, flags)
            if exits(taken):
                return
            continue
        blocks = [b for f in ("body", "orelse", "finalbody")
                  for b in [getattr(stmt, f, None)] if isinstance(b, list)]
        blocks += [h.body for h in getattr(stmt, "handlers", [])]
        blocks += [c.body for c in getattr(stmt, "cases", [])]
        in_blocks = {id(s) for b in blocks for s in b}
        for child in ast.iter_child_nodes(stmt):
            if id(child) in in_blocks or isinstance(
                    child, (ast.excepthandler, ast.match_case)):
                continue
            for n in walk_body([child]):
                if isinstance(n, ast.Call):
                    yield n
        for b in blocks:
            yield from live_calls(b, flags)


class ChainFinder:
    """Memoized search for the longest chain of calls below statements."""

    def __init__(self, project):
        self.project = project
        self.memo = {}

    def callees(self, ctx, stmts):
        """Contexts of the functions of the tree the statements call, in
        source order, each once."""
        out, seen = [], set()
        flags = capture_flags(ctx.funcs[-1].body) if ctx.funcs else set()
        for n in live_calls(stmts, flags):
            t = resolve_function(self.project, ctx, n.func)
            if t is None or id(t.funcs[-1]) in seen:
                continue
            func = t.funcs[-1]
            if not func.body or not body_runs_on_call(func):
                continue
            seen.add(id(func))
            out.append(t)
        return out

    def chain(self, ctx, stmts, depth, banned):
        """The longest chain (list of Contexts, depth+1 first) below the
        statements; banned are ids of functions not to enter."""
        if depth >= MAX_DEPTH:
            return []
        best = []
        for t in self.callees(ctx, stmts):
            func = t.funcs[-1]
            if id(func) in banned:
                continue
            key = (id(func), depth + 1)
            if key not in self.memo:
                self.memo[key] = None  # recursion guard
                sub = self.chain(t, func.body, depth + 1, banned | {id(func)})
                self.memo[key] = [t] + sub
            found = self.memo[key]
            if found is None:
                continue
            cut = next((i for i, c in enumerate(found)
                        if id(c.funcs[-1]) in banned), len(found))
            found = found[:cut]
            if len(found) > len(best):
                best = found
            if len(best) == MAX_DEPTH - depth:
                break
        return best

    def for_region(self, region):
        """The chain of callees below a region (up to three)."""
        if region.body is None or region.ctx is None:
            return []
        banned = {id(f) for f in region.ctx.funcs}
        return self.chain(region.ctx, region.body, 0, frozenset(banned))
