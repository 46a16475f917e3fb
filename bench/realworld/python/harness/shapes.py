"""Recall per call shape and per hazard kind (issue 26).

Every located region of a repository gets, as the first statement of its
body, a call that reaches a hazard through one call shape: a module held in
an attribute set in `__init__`, one inside `nn.Sequential`, iterated from an
`nn.ModuleList`, taken from an `nn.ModuleDict`, a submodule of a submodule,
a parameter annotated with the module's class, an inherited or `super()`
forward, `functools.partial`, a callable passed as an argument or bound to
an attribute, a dispatch table, a helper in another file of the package.
The definitions the call reaches are appended to the region's file (or
written beside it), so no line of the original moves; the hazard statement
carries a `# cl-hazard` marker that says where it ended up.

One variant is one copy of the tree and one capture-lint run (all regions
at once: each region's call is its own finding).  The `function` shape
(a plain module-level function) also carries each hazard kind: sync, host
read, pageable staging, a data-dependent size, a shape branch (a remark),
the RNG state, a collective under a branch on the rank, a global counter
updated (host state replays do not update), a side stream forked and not
joined back, and a PyTorch operator whose CUDA kernel synchronizes, in a C++
file written beside the copy (`TORCH_LIBRARY_IMPL` over the test mocks) and
given to the same run: the finding crosses into C++.  The `argument`
shapes pass a host tensor or a boolean mask to an unannotated parameter of
a helper that stages or indexes with it.  A variant that needs `self` and an
`__init__` of the region's class is not applied to regions without them.

The `dropped` variant is no call either: in each `with torch.cuda.graph(G):`
region of a function that keeps G beyond itself (an attribute, a
parameter, returned, stored in something other than a plain name, added to
a container), a tensor is allocated on a line of its own before the `with`
(`_cl_buf = _cl_torch.zeros(4, device='cuda')`) and read as the region's
first statement (`_cl_buf.add_(1)`), and nothing keeps it
(capture-dangling-buffer, reported at the read).

The `exit` variant is no call: in each `capture_begin` region whose
`capture_end` follows in the same block of a function, and that no `try`
with the end in its `finally` encloses, a line of its own before the first
statement after the begin returns early (`if _cl_torch.cuda.is_available():
return`), leaving the capture open (capture-unended-on-error, reported at
that line).
"""

import ast
import os

from .inject import (apply_file, hazard_after, hazard_before, parses,
                     write_copy)
from .lint import run_lint
from .regions import calls_attr
from .resolve import self_name

T = "_cl_torch"
KINDS = {
    "sync": T + ".cuda.synchronize()",
    "host-read": T + ".ones(1, device='cuda').item()",
    "pageable": T + ".arange(4, device='cpu').to('cuda')",  # explicitly host
    "data-size": T + ".nonzero(" + T + ".ones(4, device='cuda'))",
    "shape-branch": "_cl_n = 1 if " + T + ".ones(4, device='cuda').shape[0] "
                    "> 2 else 0",
    "rng": T + ".manual_seed(0)",
    # A collective only rank 0 captures (capture-collective).
    "collective": "if " + T + ".distributed.get_rank() == 0: " + T +
                  ".distributed.all_reduce(" + T + ".ones(1, device='cuda'))",
    # A counter of module state bumped at capture only
    # (capture-host-side-effect).
    "host-update": "global _cl_calls; _cl_calls += 1",
    # A side stream forked into the capture and never joined back
    # (capture-unjoined-stream).
    "unjoined": "with " + T + ".cuda.stream(" + T + ".cuda.Stream()): " + T +
                ".ones(1, device='cuda')",
    # An operator whose CUDA kernel, in NATIVE_CPP, synchronizes.
    "native": T + ".ops.cl_probe.drain(None)",
}
# The C++ extension of the `native` kind, given to the run with NATIVE_FLAGS.
NATIVE_FILE = "_cl_native.cpp"
NATIVE_CPP = """#include <cuda_runtime.h>
#include <torch/library.h>
#include <ATen/ATen.h>
namespace {
void settle() { cudaDeviceSynchronize(); }
at::Tensor drain(const at::Tensor &x) {
  settle();
  return x;
}
} // namespace
TORCH_LIBRARY(cl_probe, m) { m.def("drain(Tensor x) -> Tensor"); }
TORCH_LIBRARY_IMPL(cl_probe, CUDA, m) { m.impl("drain", &drain); }
"""
_MOCK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                     "..", "..", "tests", "Inputs", "mock")
NATIVE_FLAGS = ("--", "-x", "c++", "-std=c++17", "-isystem",
                os.path.normpath(os.path.join(_MOCK, "torch")), "-isystem",
                os.path.normpath(os.path.join(_MOCK, "cuda")))
# The early exit of the `exit` variant (capture-unended-on-error).
EXIT = "if " + T + ".cuda.is_available(): return"
# The `dropped` variant's tensor, allocated before the region and read in it.
DROPPED_MADE = "_cl_buf = " + T + ".zeros(4, device='cuda')"
DROPPED_READ = "_cl_buf.add_(1)"
# The check a variant of no call expects at its inserted line.
EXPECTED_AT_LINE = {"exit": "capture-unended-on-error",
                    "dropped": "capture-dangling-buffer"}
ADDERS = {"append", "extend", "insert", "add", "update", "setdefault"}
MARK = "  # cl-hazard"


def hazard_def(name, kind="sync"):
    """A module-level function whose body is the hazard."""
    return "def %s(t=None):\n    %s%s\n" % (name, KINDS[kind], MARK)


MODULE = ("class _ClMod(%s.nn.Module):\n    def forward(self, t=None):\n"
          "        %s%s\n" % (T, KINDS["sync"], MARK))
OUTER = ("class _ClOuter(%s.nn.Module):\n    def __init__(self):\n"
         "        super().__init__()\n        self.inner = _ClMod()\n\n"
         "    def forward(self, t=None):\n        return self.inner(t)\n" % T)
BASE = ("class _ClBase(%s.nn.Module):\n    def forward(self, t=None):\n"
        "        %s%s\n\n\nclass _ClChild(_ClBase):\n    pass\n\n\n"
        "class _ClSuper(_ClBase):\n    def forward(self, t=None):\n"
        "        return super().forward(t)\n" % (T, KINDS["sync"], MARK))

# name: (appended definitions, region statement, __init__ statement or
# None); {s} is the region method's receiver, {i} __init__'s.
SHAPES = {
    "module-attr": (MODULE, "{s}._cl_m()", "{i}._cl_m = _ClMod()"),
    "sequential": (MODULE, "{s}._cl_s(None)",
                   "{i}._cl_s = %s.nn.Sequential(%s.nn.Identity(), _ClMod())"
                   % (T, T)),
    "module-list": (MODULE, "for _cl_x in {s}._cl_l: _cl_x()",
                    "{i}._cl_l = %s.nn.ModuleList([_ClMod()])" % T),
    "module-dict": (MODULE, "{s}._cl_d['a']()",
                    "{i}._cl_d = %s.nn.ModuleDict({{'a': _ClMod()}})" % T),
    "submodule": (MODULE + "\n\n" + OUTER, "{s}._cl_o()",
                  "{i}._cl_o = _ClOuter()"),
    "annotated": (MODULE + "\n\ndef _cl_opaque():\n    return globals().get("
                  "'_cl_x')\n\n\ndef _cl_run(net: _ClMod, t=None):\n"
                  "    return net(t)\n", "_cl_run(_cl_opaque())", None),
    "inherited": (BASE, "{s}._cl_c()", "{i}._cl_c = _ClChild()"),
    "super-forward": (BASE, "_ClSuper()()", None),
    "partial": (hazard_def("_cl_f") + "\n\nimport functools as _cl_ft\n",
                "{s}._cl_p()", "{i}._cl_p = _cl_ft.partial(_cl_f, None)"),
    "callable-arg": (hazard_def("_cl_f") + "\n\ndef _cl_apply(fn, t=None):\n"
                     "    return fn(t)\n", "_cl_apply(_cl_f)", None),
    "bound-attr": (hazard_def("_cl_f"), "{s}._cl_fn()", "{i}._cl_fn = _cl_f"),
    "dispatch-dict": (hazard_def("_cl_f") + "\n\n_CL_TABLE = {'a': _cl_f}\n",
                      "_CL_TABLE['a']()", None),
    "other-file": ("", "_cl_helper()", None),
    # The hazard depends on what the region passes for an unannotated
    # parameter: a host tensor staged, a boolean mask indexing.
    "argument": ("def _cl_stage(ids):\n    return ids.to('cuda')%s\n" % MARK,
                 "_cl_stage(%s.arange(4, device='cpu'))" % T, None),
    "argument-mask": ("def _cl_pick(x, m):\n    return x[m]%s\n" % MARK,
                      "_cl_pick(%s.ones(4, device='cuda'), %s.ones(4, "
                      "device='cuda') > 0)" % (T, T), None),
}
# The hazard kind of a shape whose definitions carry their own hazard.
SHAPE_KINDS = {"argument": "pageable", "argument-mask": "data-size"}
HELPER = "import torch as %s\n\n\n%s" % (T, hazard_def("cl_helper"))


def variants():
    """[(variant name, shape, kind)]: every kind through a plain function,
    then every shape with the sync hazard."""
    out = [("function/" + k, "function", k) for k in KINDS]
    out += [(s + "/" + SHAPE_KINDS.get(s, "sync"), s,
             SHAPE_KINDS.get(s, "sync")) for s in SHAPES]
    return out + [("exit/unended", "exit", "unended"),
                  ("dropped/dangling", "dropped", "dangling")]


def init_of(ctx):
    """The __init__ of the region's class and its receiver name, or None."""
    if ctx.cls is None or self_name(ctx) is None:
        return None
    for node in ctx.cls.body:
        if getattr(node, "name", None) == "__init__" and node.body:
            args = node.args.posonlyargs + node.args.args
            return (node, args[0].arg) if args else None
    return None


def own_line(project, rel, stmt):
    """Whether stmt starts its own line (a compound statement may go
    before it on a line of its own)."""
    line = project.text(rel).split("\n")[stmt.lineno - 1]
    return line[:stmt.col_offset].strip() == ""


class Insertion:
    """The edits of one region for one variant, and what was found."""

    def __init__(self, region, call, init_edit):
        self.region = region
        self.call = call            # the Hazard-like edit in the region
        self.init_edit = init_edit  # the edit in __init__, or None
        self.found = False


def ends_in_finally(func, stmt):
    """Whether a `try` of func around stmt calls capture_end in its
    `finally` (an exit there ends the capture)."""
    for node in ast.walk(func):
        if isinstance(node, ast.Try) and node.finalbody and any(
                calls_attr(f, "capture_end") for f in node.finalbody) and any(
                stmt in ast.walk(b) for b in node.body):
            return True
    return False


def plan_exit(r):
    """The early return of the `exit` variant for region r, or None."""
    if (r.kind != "capture-begin" or r.end is None or not r.ctx.funcs
            or ends_in_finally(r.ctx.funcs[-1], r.after)):
        return None
    anchor = r.body[0] if r.body else r.end
    call = hazard_before(anchor, r.ctx.mod.rel)
    call.mode = "newline"
    call.col = anchor.col_offset
    call.text = EXIT
    return Insertion(r, call, None)


def names(node, name):
    """Whether node (or a collection in it) is the bare name."""
    if isinstance(node, ast.Name):
        return node.id == name
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(names(e, name) for e in node.elts)
    if isinstance(node, ast.Dict):
        return any(names(v, name) for v in node.values)
    return False


def graph_kept(func, graph):
    """Whether func keeps the graph expression beyond itself."""
    root = graph
    while isinstance(root, (ast.Attribute, ast.Subscript)):
        root = root.value
    if not isinstance(root, ast.Name):
        return False
    args = func.args
    params = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
    if root.id in params | {"self", "cls"}:
        return True
    if root is not graph:
        return False
    for node in ast.walk(func):
        if isinstance(node, ast.Return) and node.value is not None and \
                names(node.value, root.id):
            return True
        if isinstance(node, ast.Assign) and names(node.value, root.id) and \
                not all(isinstance(t, ast.Name) for t in node.targets):
            return True
        if isinstance(node, ast.Call) and isinstance(
                node.func, ast.Attribute) and node.func.attr in ADDERS and \
                any(names(a, root.id) for a in node.args):
            return True
    return False


def plan_dropped(project, r):
    """The allocation before and the read in region r of the `dropped`
    variant, or None."""
    if (r.kind != "graph" or r.graph is None or not r.ctx.funcs or not r.body
            or not graph_kept(r.ctx.funcs[-1], r.graph)
            or not own_line(project, r.ctx.mod.rel, r.header)):
        return None
    rel = r.ctx.mod.rel
    call = hazard_before(r.body[0], rel)
    if call.mode == "newline":
        call.col = r.body[0].col_offset
    call.text = DROPPED_READ
    made = hazard_before(r.header, rel)
    made.mode, made.col, made.text = "newline", r.header.col_offset, \
        DROPPED_MADE
    return Insertion(r, call, made)


def plan_region(project, r, shape, kind):
    """The Insertion of variant (shape, kind) for region r, or None when
    the shape does not apply to it."""
    if not r.located() or r.lam is not None:
        return None
    if shape == "exit":
        return plan_exit(r)
    if shape == "dropped":
        return plan_dropped(project, r)
    if shape == "function":
        text, init_text = "_cl_k()", None
    else:
        _defs, text, init_text = SHAPES[shape]
    init = init_of(r.ctx)
    if ("{s}" in text or init_text) and init is None:
        return None
    rel = r.ctx.mod.rel
    if r.after is not None:
        call = hazard_after(r.after, rel)
    else:
        call = hazard_before(r.body[0], rel)
    if text.startswith("for "):
        if r.after is not None or not own_line(project, rel, r.body[0]):
            return None
        call.mode = "newline"
        call.col = r.body[0].col_offset
    call.text = text.replace("{s}", self_name(r.ctx) or "self")
    init_edit = None
    if init_text:
        init_edit = hazard_before(init[0].body[0], rel)
        init_edit.text = init_text.replace("{i}", init[1])
    return Insertion(r, call, init_edit)


def appended(shape, kind, rel, project):
    """The definitions appended to a region's file."""
    head = "\n\nimport torch as %s\n\n\n" % T
    if shape in EXPECTED_AT_LINE:
        return head
    if shape == "function":
        return head + hazard_def("_cl_k", kind)
    if shape == "other-file":
        pkg = os.path.isfile(os.path.join(project.root, os.path.dirname(rel),
                                          "__init__.py"))
        return head + "from %s_cl_hmod import cl_helper as _cl_helper\n" % (
            "." if pkg else "")
    return head + SHAPES[shape][0]


def write_variant(project, src, dest, shape, kind, insertions):
    """A copy with the insertions; returns {rel: hazard line in the copy}
    for the files written (a file that would not parse is left out and
    its insertions stay not found)."""
    write_copy(project, src, dest, [], set())
    per_file = {}
    for ins in insertions:
        per_file.setdefault(ins.call.rel, []).append(ins)
    hazard_at = {}
    for rel, inss in per_file.items():
        with open(os.path.join(src, rel), "rb") as f:
            data = f.read()
        inits = {}  # regions of one class share its __init__ edit
        for i in inss:
            if i.init_edit:
                inits.setdefault(i.init_edit.anchor(), i.init_edit)
        edits = [i.call for i in inss] + list(inits.values())
        new, _lmap = apply_file(data, edits)
        new = new.rstrip(b"\n") + appended(shape, kind, rel,
                                           project).encode()
        if not parses(new):
            continue
        os.unlink(os.path.join(dest, rel))
        with open(os.path.join(dest, rel), "wb") as f:
            f.write(new)
        if shape == "other-file":
            helper = os.path.join(dest, os.path.dirname(rel), "_cl_hmod.py")
            with open(helper, "w") as f:
                f.write(HELPER)
            hazard_at[rel] = (os.path.relpath(helper, dest),
                              marker_line(HELPER.encode()))
        elif shape in EXPECTED_AT_LINE:
            hazard_at[rel] = (rel, EXPECTED_AT_LINE[shape])
        else:
            hazard_at[rel] = (rel, marker_line(new))
    return hazard_at


def marker_line(data):
    """The 1-based line of the `# cl-hazard` marker."""
    for n, line in enumerate(data.split(b"\n"), start=1):
        if line.endswith(MARK.encode()):
            return n
    return 0


def is_found(result, ins, hazard_at):
    """Whether a finding at the region's inserted call reaches the marked
    hazard (its hazard_at, or one of its notes, is there)."""
    where = hazard_at.get(ins.call.rel)
    if where is None:
        return False
    if isinstance(where[1], str):  # a variant of no call: its check there
        return any((f["file"], f["line"], f.get("check")) ==
                   (ins.call.rel, ins.call.new_line, where[1])
                   for f in result.findings)
    for f in result.findings:
        if (f["file"], f["line"]) != (ins.call.rel, ins.call.new_line):
            continue
        places = [(n["file"], n["line"]) for n in f.get("notes", [])]
        at = f.get("hazard_at") or {}
        places.append((os.path.basename(at.get("file", "")), at.get("line")))
        if where in places or (os.path.basename(where[0]),
                               where[1]) in places:
            return True
    return False


def run_shapes(binary, project, src, work, regions, log):
    """{variant: {"found": n, "inserted": n, "missed": [keys]}}."""
    out = {}
    for name, shape, kind in variants():
        inss = [i for i in (plan_region(project, r, shape, kind)
                            for r in regions) if i]
        if not inss:
            out[name] = {"found": 0, "inserted": 0, "missed": []}
            continue
        dest = os.path.join(work, "shape")
        hazard_at = write_variant(project, src, dest, shape, kind, inss)
        targets, tail = ["."], ()
        if kind == "native":
            with open(os.path.join(dest, NATIVE_FILE), "w") as f:
                f.write(NATIVE_CPP)
            targets, tail = [".", NATIVE_FILE], NATIVE_FLAGS
        result = run_lint(binary, dest, targets, dest + ".json", tail=tail)
        for ins in inss:
            ins.found = is_found(result, ins, hazard_at)
        missed = sorted("%s (%s)" % (i.region.key(), name) for i in inss
                        if not i.found)
        out[name] = {"found": len(inss) - len(missed),
                     "inserted": len(inss), "missed": missed}
    found = sum(v["found"] for v in out.values())
    total = sum(v["inserted"] for v in out.values())
    log("  call shapes and hazard kinds: %d/%d found" % (found, total))
    return out
