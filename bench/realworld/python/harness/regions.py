"""Every capture region of an exported tree, found without capture-lint.

Kinds (the `kind` field):
  graph           `with torch.cuda.graph(...):` (through imports and aliases)
  graph-ctx       `with ctx:` where ctx (a local or `self.x`) was assigned
                  `torch.cuda.graph(...)` (or a conditional with one arm so)
  capture-begin   `x.capture_begin(...)`: the statements after it in its
                  block, up to the one that calls `capture_end`
  graphed         `torch.cuda.make_graphed_callables(f, ...)`: the body of
                  each callable resolved (function, method, partial, module
                  instance of a class of the tree -> forward)
  helper-with     `with h(...):` where h is a context manager of the tree
                  whose body enters a region (a @contextmanager function, or
                  a class whose __enter__ does)
  helper-call     `h(f, ...)` where h is a function of the tree that calls
                  its parameter inside a region: the body of the f passed
  begin-end       `x.start()` ... `x.stop()` in one block, where start() is a
                  method of the tree that begins a capture and does not end
                  it, and stop() one of the same class that ends it

A region whose body cannot be located (a callable passed in from elsewhere,
`ExitStack.enter_context(torch.cuda.graph(g))`) is listed with body None: it
counts as discovered, apart from the recall figures.  A lambda's body is an
expression: its hazard is `(torch.cuda.synchronize(), BODY)[-1]`.
"""

import ast

from .project import (FUNC_TYPES, TORCH_GRAPH, TORCH_GRAPHED, dotted_name,
                      qualified, walk_body)
from .resolve import (Context, assigned_values, resolve_callable,
                      resolve_function, self_name)


class Region:
    """A capture region: where it is, what it is, and where its body is."""

    def __init__(self, kind, mod, line, accept, body=None, ctx=None,
                 after=None, what="", lam=None):
        self.lam = lam              # a lambda whose body is the region
        self.kind = kind
        self.rel = mod.rel
        self.line = line            # the line a human looks at
        self.accept = set(accept)   # (file, line) a finding's region may begin at
        self.body = body            # statements of the region, or None
        self.ctx = ctx              # Context of the body
        self.after = after          # insert the hazard after this statement
        self.what = what            # e.g. the callable's name
        self.stmt_ctx = None
        self.end = None             # capture-begin: the end in its block
        self.header = None          # a with region: the with statement
        self.graph = None           # graph: the graph expression

    def key(self):
        """Stable identity: file, line, kind and what."""
        return "%s:%d:%s%s" % (self.rel, self.line, self.kind,
                               ":" + self.what if self.what else "")

    def located(self):
        """Whether the body is known (so a hazard can be inserted)."""
        return self.body is not None or self.after is not None


def span(node, *more):
    """The lines from node's first to the last line of node and more."""
    first = min([node.lineno] + [d.lineno for d in
                                 getattr(node, "decorator_list", [])])
    last = max(n.end_lineno for n in (node,) + more)
    return range(first, last + 1)


def header_lines(node):
    """A compound statement's lines before its body (decorators included)."""
    first = min([node.lineno] + [d.lineno for d in
                                 getattr(node, "decorator_list", [])])
    return range(first, max(node.body[0].lineno, first + 1))


def is_graph_call(mod, node):
    """Whether node is a call of torch.cuda.graph."""
    return (isinstance(node, ast.Call)
            and qualified(mod, node.func) in TORCH_GRAPH)


def calls_attr(stmt, attr):
    """Whether a statement calls a method named attr (not entering nested
    definitions)."""
    for n in walk_body([stmt]):
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                and n.func.attr == attr):
            return True
    return False


def graph_valued(mod, value):
    """Whether an assigned value is (or may be) a torch.cuda.graph(...)."""
    if is_graph_call(mod, value):
        return True
    if isinstance(value, ast.IfExp):
        return graph_valued(mod, value.body) or graph_valued(mod, value.orelse)
    return False


def is_graph_ctx(ctx, expr):
    """Whether `with expr:` enters a torch.cuda.graph assigned earlier."""
    name = dotted_name(expr)
    if not name:
        return False
    if isinstance(expr, ast.Name):
        scope = ctx.funcs[-1].body if ctx.funcs else ctx.mod.tree.body
        values = assigned_values(scope, name)
    elif (isinstance(expr, ast.Attribute) and ctx.cls is not None
          and isinstance(expr.value, ast.Name)
          and expr.value.id == self_name(ctx)):
        values = []
        for m in ctx.cls.body:
            if isinstance(m, FUNC_TYPES):
                values += assigned_values(m.body, "self." + expr.attr)
    else:
        return False
    return any(graph_valued(ctx.mod, v) for v in values)


def stmt_blocks(node):
    """The statement lists a node holds (bodies, else, finally, handlers)."""
    for field in ("body", "orelse", "finalbody"):
        block = getattr(node, field, None)
        if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
            yield block
    for h in getattr(node, "handlers", []):
        yield h.body
    for c in getattr(node, "cases", []):
        yield c.body


def may_open(text):
    """Whether a file's text can hold a region of its own (a cheap test
    before parsing)."""
    return ("capture_begin" in text or "make_graphed_callables" in text
            or ("torch" in text and "graph" in text))


def all_scopes(modules):
    """(Context, statements) of every module body and function body."""
    for mod in modules:
        yield from _scopes(Context(mod, None, ()), mod.tree.body)


def _scopes(ctx, stmts):
    yield ctx, stmts
    for node in walk_body(stmts, scopes=True):
        if isinstance(node, FUNC_TYPES):
            yield from _scopes(Context(ctx.mod, ctx.cls, ctx.funcs + (node,)),
                               node.body)
        elif isinstance(node, ast.ClassDef):
            yield from _scopes(Context(ctx.mod, node, ()), node.body)


COMPOUND = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith,
            ast.Try, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
            ast.Match) + ((ast.TryStar,) if hasattr(ast, "TryStar") else ())


class Helpers:
    """The tree's own capture helpers (regions.py's header): context
    managers, functions that call a callable parameter inside a region, and
    classes whose methods begin and end a capture apart."""

    def __init__(self):
        self.cm = set()          # id(FunctionDef) of context-manager helpers
        self.cm_classes = set()  # id(ClassDef) whose __enter__ begins one
        self.callable = {}       # id(FunctionDef) -> [(param, index)]
        self.begin = {}          # method name -> {id(ClassDef)}
        self.end = {}            # method name -> {id(ClassDef)}
        self.names = {}          # id(def) -> qualified name, for the report
        self.words = set()       # names of the helpers and their methods


def is_contextmanager(func):
    """Whether a function is decorated as a (async) context manager."""
    return any((dotted_name(d) or "").endswith("contextmanager")
               for d in func.decorator_list)


def find_helpers(project, modules):
    """Helpers of the modules, to a fixpoint (a helper may use one)."""
    helpers = Helpers()
    scopes = [(c, s) for c, s in all_scopes(modules) if c.funcs]
    cms = [(c, s) for c, s in scopes if is_contextmanager(c.funcs[-1])]
    changed = True
    while changed:
        changed = False
        for ctx, stmts in cms:
            func = ctx.funcs[-1]
            if id(func) in helpers.cm:
                continue
            if any(r.kind != "graphed" for r in
                   scope_regions(project, helpers, ctx, stmts)):
                helpers.cm.add(id(func))
                helpers.words.add(func.name)
                helpers.names[id(func)] = qualname(ctx)
                changed = True
    for ctx, stmts in scopes:
        find_method_helpers(helpers, ctx, stmts)
        find_callable_helper(project, helpers, ctx, stmts)
    return helpers


def qualname(ctx):
    """`file:Class.func` for a function's context."""
    parts = ([ctx.cls.name] if ctx.cls is not None else []) + \
        [f.name for f in ctx.funcs]
    return "%s:%s" % (ctx.mod.rel, ".".join(parts))


def find_method_helpers(helpers, ctx, stmts):
    """Records begin/end methods and classes whose __enter__ begins."""
    if ctx.cls is None or len(ctx.funcs) != 1:
        return
    name = ctx.funcs[0].name
    begins = any(calls_attr(s, "capture_begin") for s in stmts)
    ends = any(calls_attr(s, "capture_end") for s in stmts)
    if name == "__enter__" and (begins or any(
            is_graph_call(ctx.mod, n) for n in walk_body(stmts))):
        helpers.cm_classes.add(id(ctx.cls))
        helpers.words.add(ctx.cls.name)
    elif name.startswith("__") or name in ("capture_begin", "capture_end"):
        return
    elif begins and not ends:
        helpers.begin.setdefault(name, set()).add(id(ctx.cls))
        helpers.words.add(name)
    elif ends and not begins:
        helpers.end.setdefault(name, set()).add(id(ctx.cls))


def params(ctx):
    """(name, positional index as the caller counts it) of a function's
    parameters: a method's receiver is not counted."""
    func = ctx.funcs[-1]
    args = func.args.posonlyargs + func.args.args
    if ctx.cls is not None and len(ctx.funcs) == 1 and not any(
            dotted_name(d) == "staticmethod" for d in func.decorator_list):
        args = args[1:]
    return [(a.arg, i) for i, a in enumerate(args)] + \
        [(a.arg, None) for a in func.args.kwonlyargs]


def find_callable_helper(project, helpers, ctx, stmts):
    """Records a function that calls one of its parameters in a region."""
    names = dict(params(ctx))
    used = []
    for r in scope_regions(project, helpers, ctx, stmts):
        for n in walk_body(r.body or []):
            if (isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                    and n.func.id in names
                    and (n.func.id, names[n.func.id]) not in used):
                used.append((n.func.id, names[n.func.id]))
    if used:
        helpers.callable[id(ctx.funcs[-1])] = used
        helpers.words.add(ctx.funcs[-1].name)
        helpers.names[id(ctx.funcs[-1])] = qualname(ctx)


def discover(project):
    """Every region of the tree, and the helpers found on the way."""
    base = [m for m in (project.get(r) for r in project.rels
                        if may_open(project.text(r))) if m is not None]
    helpers = find_helpers(project, base)
    users = [m for m in project.modules_mentioning(sorted(helpers.words))
             if m not in base] if helpers.words else []
    seen = {}
    for ctx, stmts in all_scopes(base + users):
        for r in scope_regions(project, helpers, ctx, stmts):
            seen.setdefault(r.key(), r)
    return list(seen.values()), helpers


def last_name(expr):
    """The last component of a called name (`f` of `a.b.f`)."""
    if isinstance(expr, ast.Attribute):
        return expr.attr
    return expr.id if isinstance(expr, ast.Name) else None


def scope_regions(project, helpers, ctx, stmts):
    """The regions that open in one scope's own statements."""
    out = []
    consumed = set()
    for node in walk_body(stmts):
        if isinstance(node, (ast.With, ast.AsyncWith)):
            out += with_regions(project, helpers, ctx, node, consumed)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value:
            for n in ast.walk(node.value):
                consumed.add(id(n))
        elif isinstance(node, ast.Call):
            out += call_regions(project, helpers, ctx, node, consumed)
        if isinstance(node, ast.stmt):
            for block in stmt_blocks(node):
                out += block_regions(helpers, ctx, block)
    return out + block_regions(helpers, ctx, stmts)


def with_regions(project, helpers, ctx, node, consumed):
    """The region a with statement opens, if it opens one."""
    for item in node.items:
        e = item.context_expr
        kind, what = None, ""
        if is_graph_call(ctx.mod, e):
            consumed.add(id(e))
            kind = "graph"
        elif is_graph_ctx(ctx, e):
            kind, what = "graph-ctx", dotted_name(e)
        elif isinstance(e, ast.Call) and last_name(e.func) in helpers.words:
            what = cm_helper(project, helpers, ctx, e)
            kind = "helper-with" if what else None
        if kind:
            lines = header_lines(node)
            region = Region(kind, ctx.mod, node.lineno,
                            [(ctx.mod.rel, l) for l in lines],
                            body=node.body, ctx=ctx, what=what)
            region.header = node
            if kind == "graph" and e.args:
                region.graph = e.args[0]
            return [region]
    return []


def cm_helper(project, helpers, ctx, call):
    """The name of the helper context manager a call makes, if it is one."""
    target = resolve_function(project, ctx, call.func)
    if target and id(target.funcs[-1]) in helpers.cm:
        return dotted_name(call.func) or "?"
    from .resolve import class_of_call
    cls = class_of_call(project, ctx, call)
    if cls and id(cls[1]) in helpers.cm_classes:
        return dotted_name(call.func) or "?"
    return ""


def call_regions(project, helpers, ctx, call, consumed):
    """Regions a call opens: make_graphed_callables, a callable helper's
    use, or a torch.cuda.graph(...) that no with statement enters."""
    q = qualified(ctx.mod, call.func)
    if q in TORCH_GRAPHED:
        arg = call.args[0] if call.args else next(
            (k.value for k in call.keywords if k.arg == "callables"), None)
        return callable_regions(project, "graphed", ctx, call, arg)
    if q in TORCH_GRAPH:
        if id(call) in consumed:
            return []
        return [Region("graph", ctx.mod, call.lineno,
                       [(ctx.mod.rel, l) for l in span(call)],
                       what="not entered by a with statement")]
    if last_name(call.func) not in helpers.words:
        return []
    target = resolve_function(project, ctx, call.func)
    if not target or id(target.funcs[-1]) not in helpers.callable:
        return []
    out = []
    for pname, index in helpers.callable[id(target.funcs[-1])]:
        arg = next((k.value for k in call.keywords if k.arg == pname), None)
        if arg is None and index is not None and index < len(call.args):
            arg = call.args[index]
        if arg is not None and not isinstance(arg, ast.Starred):
            out += callable_regions(project, "helper-call", ctx, call, arg)
    return out


def callable_regions(project, kind, ctx, call, arg):
    """One region per function a callable argument resolves to."""
    site = [(ctx.mod.rel, l) for l in span(call)]
    text = ast.unparse(arg)[:60] if arg is not None else "?"
    if isinstance(arg, ast.Lambda):
        accept = site + [(ctx.mod.rel, l) for l in span(arg)]
        return [Region(kind, ctx.mod, call.lineno, accept, body=[arg.body],
                       ctx=ctx, what=text, lam=arg)]
    targets = resolve_callable(project, ctx, arg) if arg is not None else []
    if not targets:
        return [Region(kind, ctx.mod, call.lineno, site, what=text)]
    out = []
    for t in targets:
        func = t.funcs[-1]
        accept = site + [(t.mod.rel, l) for l in header_lines(func)]
        out.append(Region(kind, ctx.mod, call.lineno, accept, body=func.body,
                          ctx=t, what="%s -> %s:%d" % (text, t.mod.rel,
                                                       func.lineno)))
    return out


def block_regions(helpers, ctx, block):
    """capture_begin ... capture_end spans, and begin/end helper pairs, that
    open in one statement list."""
    out = []
    for i, stmt in enumerate(block):
        if isinstance(stmt, COMPOUND):
            continue
        if calls_attr(stmt, "capture_begin"):
            j = next((k for k in range(i + 1, len(block))
                      if calls_attr(block[k], "capture_end")), len(block))
            region = Region("capture-begin", ctx.mod, stmt.lineno,
                            [(ctx.mod.rel, l) for l in span(stmt)],
                            body=block[i + 1:j], ctx=ctx, after=stmt)
            region.end = block[j] if j < len(block) else None
            out.append(region)
            continue
        pair = begin_end_pair(helpers, block, i)
        if pair is not None:
            out.append(Region("begin-end", ctx.mod, stmt.lineno,
                              [(ctx.mod.rel, l) for l in span(stmt)],
                              body=block[i + 1:pair], ctx=ctx, after=stmt,
                              what=ast.unparse(stmt)[:60]))
    return out


def method_calls(stmt):
    """(receiver text, method name) of the method calls in a statement."""
    for n in walk_body([stmt]):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
            yield ast.unparse(n.func.value), n.func.attr


def begin_end_pair(helpers, block, i):
    """The index of the statement that ends what block[i] begins through
    begin/end helper methods of one class, or None."""
    for recv, name in method_calls(block[i]):
        classes = helpers.begin.get(name)
        if not classes:
            continue
        for k in range(i + 1, len(block)):
            for recv2, name2 in method_calls(block[k]):
                if recv2 == recv and classes & helpers.end.get(name2, set()):
                    return k
    return None
