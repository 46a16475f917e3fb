"""Calls below a region: the functions of the tree a region calls, and the
calls they make, to three levels.

For each region the first call (in source order) that starts the longest
chain of resolvable calls is taken (at most three deep); the hazard goes at
the start of each function of that chain, one per depth.  A function whose
body does not run when it is called (a generator, a coroutine, a context
manager) is not taken, nor the function the region itself is in.
"""

import ast

from .project import walk_body
from .resolve import resolve_function

MAX_DEPTH = 3


def body_runs_on_call(func):
    """Whether calling the function runs its body (not a generator or a
    coroutine)."""
    if isinstance(func, ast.AsyncFunctionDef):
        return False
    return not any(isinstance(n, (ast.Yield, ast.YieldFrom, ast.Await))
                   for n in walk_body(func.body))


class ChainFinder:
    """Memoized search for the longest chain of calls below statements."""

    def __init__(self, project):
        self.project = project
        self.memo = {}

    def callees(self, ctx, stmts):
        """Contexts of the functions of the tree the statements call, in
        source order, each once."""
        out, seen = [], set()
        for n in walk_body(stmts):
            if not isinstance(n, ast.Call):
                continue
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
