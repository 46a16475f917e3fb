"""Where code sits (Context) and what a called expression denotes in the
tree: the simple cases a reader resolves at a glance (project.py's header).
"""

import ast
from collections import namedtuple

from .project import FUNC_TYPES, dotted_name, qualified, walk_body

# mod: Module; cls: the enclosing ClassDef or None; funcs: the enclosing
# function definitions, outermost first (a callee's context ends with it).
Context = namedtuple("Context", "mod cls funcs")


def self_name(ctx):
    """The name of the receiver parameter of the enclosing method, if any."""
    if ctx.cls is None or not ctx.funcs:
        return None
    method = ctx.funcs[0]
    if any(dotted_name(d) == "staticmethod" for d in method.decorator_list):
        return None
    args = method.args.posonlyargs + method.args.args
    return args[0].arg if args else None


_NESTED = {}


def nested_defs(func):
    """{name: [FunctionDef]} of the functions defined in a function's body,
    in source order (memoized)."""
    key = id(func)
    if key not in _NESTED:
        defs = {}
        for n in walk_body(func.body, scopes=True):
            if isinstance(n, FUNC_TYPES):
                defs.setdefault(n.name, []).append(n)
        _NESTED[key] = (func, defs)
    return _NESTED[key][1]


def local_def(ctx, name, line):
    """A function nested in an enclosing function, with its context: of
    several of that name, the last one defined above the line."""
    for i in range(len(ctx.funcs) - 1, -1, -1):
        defs = nested_defs(ctx.funcs[i]).get(name)
        if defs:
            above = [d for d in defs if d.lineno < line]
            node = above[-1] if above else defs[0]
            return Context(ctx.mod, ctx.cls, ctx.funcs[:i + 1] + (node,))
    return None


def as_target(found):
    """A Context for a project.lookup/resolve_name/method result that is a
    function, else None."""
    if not found or found[0] != "def":
        return None
    if len(found) == 4:  # ('def', mod, cls, node) from a class member
        return Context(found[1], found[2], (found[3],))
    mod, node = found[1], found[2]
    cls = enclosing_class(mod, node)
    return Context(mod, cls, (node,))


def enclosing_class(mod, node):
    """The top-level class of mod whose body holds node, if any."""
    for cls in mod.classes.values():
        if node in cls.body:
            return cls
    return None


def resolve_function(project, ctx, expr):
    """The Context of the function of the tree that `expr(...)` calls, or
    None: local and module functions, imported ones, self/super()/Cls
    methods, functions of imported modules of the tree."""
    if is_self_attr(ctx, expr) and project.method(ctx.mod, ctx.cls,
                                                  expr.attr) is None:
        return module_call(project, ctx, expr)
    if isinstance(expr, ast.Name):
        found = local_def(ctx, expr.id, expr.lineno)
        if found:
            return found
        found = as_target(project.resolve_name(ctx.mod, expr.id))
        return found or module_call(project, ctx, expr)
    if not isinstance(expr, ast.Attribute):
        return None
    value = expr.value
    if isinstance(value, ast.Name) and value.id == self_name(ctx):
        m = project.method(ctx.mod, ctx.cls, expr.attr)
        return Context(m[0], m[1], (m[2],)) if m else None
    if is_self_attr(ctx, value):
        inst = class_of_instance(project, ctx, value)
        m = project.method(inst[0], inst[1], expr.attr) if inst else None
        return Context(m[0], m[1], (m[2],)) if m else None
    if (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
            and value.func.id == "super" and ctx.cls is not None):
        for bmod, bcls in project.bases(ctx.mod, ctx.cls):
            m = project.method(bmod, bcls, expr.attr)
            if m:
                return Context(m[0], m[1], (m[2],))
        return None
    if (isinstance(value, ast.Name) and value.id not in ctx.mod.imports
            and value.id not in ctx.mod.classes):
        inst = class_of_instance(project, ctx, value)
        m = project.method(inst[0], inst[1], expr.attr) if inst else None
        return Context(m[0], m[1], (m[2],)) if m else None
    dotted = qualified(ctx.mod, expr)
    if not dotted or dotted.startswith("torch."):
        return None
    head = dotted_name(expr).split(".")[0]
    if head in ctx.mod.imports or head in ctx.mod.classes:
        if head in ctx.mod.classes:
            found = project.member(ctx.mod, dotted_name(expr).split("."), 0)
        else:
            found = project.lookup(ctx.mod, dotted)
        return as_target(found)
    return None


def is_self_attr(ctx, expr):
    """Whether expr is `self.attr` in a method."""
    return (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name)
            and ctx.cls is not None and expr.value.id == self_name(ctx))


def module_call(project, ctx, expr):
    """The forward (else __call__) of the instance held in `self.attr` or a
    local, when the class or function assigns it a class of the tree
    (`self.attn = Attention()`, `m = Net()`)."""
    inst = class_of_instance(project, ctx, expr)
    if inst is None:
        return None
    for name in ("forward", "__call__"):
        m = project.method(inst[0], inst[1], name)
        if m:
            return Context(m[0], m[1], (m[2],))
    return None


def class_of_instance(project, ctx, expr):
    """(Module, ClassDef) when expr is a module-held instance made from a
    class of the tree in this function (`m = Net()`) or this class
    (`self.m = Net()`), or is such a call itself."""
    if isinstance(expr, ast.Call):
        return class_of_call(project, ctx, expr)
    assigns = []
    if isinstance(expr, ast.Name) and ctx.funcs:
        assigns = assigned_values(ctx.funcs[-1].body, expr.id)
    elif (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name)
          and expr.value.id == self_name(ctx)):
        for m in ctx.cls.body:
            if isinstance(m, FUNC_TYPES):
                assigns += assigned_values(m.body, "self." + expr.attr)
    for value in assigns:
        if isinstance(value, ast.Call):
            found = class_of_call(project, ctx, value)
            if found:
                return found
    return None


def class_of_call(project, ctx, call):
    """(Module, ClassDef) when call constructs a class of the tree."""
    dotted = dotted_name(call.func)
    if not dotted:
        return None
    head, _, rest = dotted.partition(".")
    found = project.resolve_name(ctx.mod, head)
    if found and rest and found[0] == "module":
        found = project.member(found[1], rest.split("."), 0)
    if found and found[0] == "class":
        return (found[1], found[2])
    return None


def assigned_values(stmts, target):
    """The values assigned to a name (or `self.attr`) in the statements."""
    out = []
    for node in walk_body(stmts):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)) and node.value:
            targets = [node.target]
        else:
            continue
        if any(dotted_name(t) == target for t in targets):
            out.append(node.value)
    return out


def resolve_callable(project, ctx, expr):
    """The functions of the tree a callable argument stands for (the way
    make_graphed_callables and capture helpers take them): a function or
    method, `functools.partial(f, ...)`, a module instance of a class of the
    tree (its forward, else __call__), or a tuple/list of those.  Returns
    a list of Contexts; empty when nothing is resolved."""
    if isinstance(expr, (ast.Tuple, ast.List)):
        out = []
        for e in expr.elts:
            out += resolve_callable(project, ctx, e)
        return out
    if isinstance(expr, ast.Call):
        name = dotted_name(expr.func) or ""
        if name.split(".")[-1] == "partial" and expr.args:
            return resolve_callable(project, ctx, expr.args[0])
    target = resolve_function(project, ctx, expr)
    if target:
        return [target]
    inst = class_of_instance(project, ctx, expr)
    if inst:
        for name in ("forward", "__call__"):
            m = project.method(inst[0], inst[1], name)
            if m:
                return [Context(m[0], m[1], (m[2],))]
    return []
