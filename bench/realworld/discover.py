"""Finds capture regions by text, without capture-lint (issue 23).

Begin and end APIs come from the catalog (checks/catalog/*.json, the
`regions` entries of role begin/end; C++ families only).  Functions are
found on the tokens of tokens.py: an opener is a function whose body calls
a begin (or an opener) of a group with no later end (or closer) of that
group; a closer the other way round.  A region begins at a begin API call
outside an opener's body, or at a call of an opener from a function that is
not one; it ends at the next end (or closer) of its group in the same body,
or at the end of the body.
"""

import collections
import glob
import json
import os
import re

import tokens as tk

HERE = os.path.dirname(os.path.abspath(__file__))
CATALOG = os.path.join(HERE, "..", "..", "checks", "catalog")
SOURCE_EXT = (".c", ".cc", ".cpp", ".cxx", ".cu", ".cuh", ".h", ".hh",
              ".hpp", ".hxx", ".hip", ".inl", ".ipp", ".tpp", ".inc")
KEYWORDS = set("""if for while switch catch return sizeof alignof decltype
    typeid static_assert noexcept throw new delete do else try case default
    using namespace typedef template typename operator defined __attribute__
    __declspec alignas asm __asm__ co_return co_await co_yield requires
    static_cast dynamic_cast const_cast reinterpret_cast""".split())
TAIL_WORDS = {"const", "volatile", "noexcept", "override", "final", "mutable",
              "throw", "&", "&&", "__restrict__", "requires", "try"}

Func = collections.namedtuple(
    "Func", "file name qual open close line col head")
Call = collections.namedtuple("Call", "name index line col member")
Begin = collections.namedtuple(
    "Begin", "file line col index group api via func end_index macro")


def catalog_apis(catalog_dir=CATALOG):
    """{api name: (role, group)} for the C++ begin and end APIs of the
    catalog, variants included; libtorch's qualified names by their last
    component (`capture_begin`)."""
    apis = {}
    for path in sorted(glob.glob(os.path.join(catalog_dir, "*.json"))):
        with open(path) as f:
            family = json.load(f)
        if family.get("language", "cpp") != "cpp" or "python" in path:
            continue
        for entry in family.get("regions", []):
            if entry.get("role") not in ("begin", "end"):
                continue
            for name in [entry["name"]] + entry.get("variants", []):
                apis[name.split("::")[-1]] = (entry["role"], entry["group"])
    return apis


class FileScan:
    """A file's tokens, brackets, function bodies and calls."""

    def __init__(self, root, rel):
        self.rel = rel
        with open(os.path.join(root, rel), errors="replace") as f:
            self.src = tk.Source(f.read())
        self.toks = self.src.tokens
        self.pairs = tk.match_brackets(self.toks)
        self.funcs = find_functions(self)
        self.declared = declarations(self)
        self.deferred = deferred_lambdas(self.toks, self.pairs)
        calls = find_calls(self.toks)
        calls += calls_through_macros(self, calls)
        self.calls = sorted(
            (c for c in calls
             if not any(o < c.index < e for o, e in self.deferred)),
            key=lambda c: c.index)
        self._owner = owner_index(self)

    def func_at(self, index):
        """The innermost named function whose body holds token index."""
        return self._owner.get(index)


DEFERRING = re.compile(r"guard|defer|scope_?exit|finally|cleanup", re.I)


def deferred_lambdas(toks, pairs):
    """[(open, close)] of lambda bodies that run later, not where they are
    written: returned (`return ScopeGuard{[=] { end(); }}`) or handed to a
    guard (`auto g = make_scope_exit([&] { end(); })`).  Calls in them are
    left out of the events."""
    out = []
    for i, t in enumerate(toks):
        if t.text != "{" or i not in pairs or i == 0:
            continue
        k = i - 1
        while k > 0 and (toks[k].text in ("mutable", "noexcept", "->") or
                         toks[k].kind == "ident"
                         and toks[k - 1].text in ("->", "::")):
            k -= 1
        if toks[k].text == ")" and k in pairs:
            k = pairs[k] - 1
        if toks[k].text != "]" or k not in pairs:
            continue
        j = pairs[k] - 1
        words = []
        while j >= 0 and toks[j].text not in (";", "}") and not (
                toks[j].text == "{" and j > 0
                and toks[j - 1].text in (")", ";", "{", "}", "else", "do")):
            words.append(toks[j].text)
            j -= 1
        if words and (words[-1] == "return" or any(
                DEFERRING.search(w) for w in words if w[:1].isalpha())):
            out.append((i, pairs[i]))
    return out


def owner_index(scan):
    """Token index -> innermost function holding it."""
    owner = {}
    for fn in sorted(scan.funcs, key=lambda f: f.close - f.open,
                     reverse=True):
        for i in range(fn.open, fn.close + 1):
            owner[i] = fn
    return owner


def find_calls(toks):
    """Every `name(` and `name<...>(` in the token stream."""
    calls = []
    for i, t in enumerate(toks):
        if t.kind != "ident" or t.text in KEYWORDS:
            continue
        j = i + 1
        if j < len(toks) and toks[j].text == "<":
            j = skip_template_args(toks, j)
        if j is None or j >= len(toks) or toks[j].text != "(":
            continue
        prev = toks[i - 1].text if i else ""
        calls.append(Call(t.text, i, t.line, t.col, prev in (".", "->")))
    return calls


def calls_through_macros(scan, calls):
    """Calls a macro makes of a name passed to it: with `#define
    CALL(fn, sym, ...) return sym(__VA_ARGS__);`, `CALL(f, cudaFoo, s)` is
    a call of cudaFoo (at the argument's token)."""
    called = {}
    for d in scan.src.defines:
        if not d.params:
            continue
        for i, t in enumerate(d.body[:-1]):
            if t.text in d.params and d.body[i + 1].text == "(":
                called.setdefault(d.name, set()).add(d.params.index(t.text))
    out = []
    for call in calls:
        if call.name not in called:
            continue
        for pos, (lo, hi) in enumerate(macro_args(scan, call.index + 1)):
            if pos in called[call.name] and hi == lo and \
                    scan.toks[lo].kind == "ident":
                t = scan.toks[lo]
                out.append(Call(t.text, lo, t.line, t.col, False))
    return out


def macro_args(scan, open_paren):
    """[(first, last) token index] of the arguments of the call whose `(`
    is at open_paren."""
    close = scan.pairs.get(open_paren)
    if close is None:
        return []
    out, start, k = [], open_paren + 1, open_paren + 1
    while k < close:
        text = scan.toks[k].text
        if text in ("(", "[", "{") and k in scan.pairs:
            k = scan.pairs[k] + 1
            continue
        if text == ",":
            out.append((start, k - 1))
            start = k + 1
        k += 1
    out.append((start, close - 1))
    return out


def skip_template_args(toks, j):
    """Index after the `<...>` starting at j, or None when it does not look
    like template arguments."""
    depth = 0
    for k in range(j, min(j + 40, len(toks))):
        text = toks[k].text
        if text == "<":
            depth += 1
        elif text == ">":
            depth -= 1
            if depth == 0:
                return k + 1
        elif text in (";", "{", "}", "&&", "||"):
            return None
    return None


def find_functions(scan):
    """Named function bodies: a `{` after `name(...)` and qualifiers or a
    constructor's initializer list; gtest-style `TEST(a, b) {` included."""
    toks, pairs, funcs = scan.toks, scan.pairs, []
    classes = class_bodies(toks, pairs)
    for i, t in enumerate(toks):
        if t.text != "{" or i not in pairs:
            continue
        close_paren = paren_before_body(toks, pairs, i)
        if close_paren is None:
            continue
        open_paren = pairs.get(close_paren)
        if open_paren is None or open_paren == 0:
            continue
        name_at = open_paren - 1
        if toks[name_at].text == "]" and name_at in pairs:
            lam = lambda_name(toks, pairs[name_at])
            if lam is not None:
                funcs.append(Func(scan.rel, lam, lam, i, pairs[i], t.line,
                                  t.col, ()))
            continue
        if toks[name_at].text == ">":
            name_at = template_name_before(toks, name_at)
            if name_at is None:
                continue
        name = toks[name_at]
        if name.kind != "ident" or name.text in KEYWORDS:
            continue
        qual = qualified_name(toks, name_at, classes, i)
        head = head_tokens(toks, name_at)
        funcs.append(Func(scan.rel, name.text, qual, i, pairs[i], t.line,
                          t.col, head))
    return outermost(funcs)


def outermost(funcs):
    """Drops `name(...) {` found inside another function's body (a macro
    loop such as `FOR_EACH(i) {`, or a local class's method)."""
    out, end = [], -1
    for fn in sorted(funcs, key=lambda f: f.open):
        if fn.open > end:
            out.append(fn)
            end = fn.close
    return out


def lambda_name(toks, bracket):
    """For `name = [...](...) {`, name; `<lambda>` for another lambda
    (only those outside every function body are kept)."""
    if (bracket >= 2 and toks[bracket - 1].text == "="
            and toks[bracket - 2].kind == "ident"):
        return toks[bracket - 2].text
    return "<lambda>"


def paren_before_body(toks, pairs, brace):
    """The `)` of the parameter list before a body's `{`, or None."""
    k = brace - 1
    while k >= 0:
        text = toks[k].text
        if text == ")":
            opener = pairs.get(k)
            if opener is None:
                return None
            before = toks[opener - 1].text if opener else ""
            if before in ("noexcept", "throw", "requires") or (
                    before == "__attribute__"):
                k = opener - 2
                continue
            init = initializer_list_start(toks, pairs, k)
            if init is not None:
                k = init
                continue
            return k
        if text in TAIL_WORDS or text == "]" and k > 0 and toks[k - 1].text == "]":
            k -= 2 if text == "]" else 1
            continue
        if text == "->":
            return None
        if toks[k].kind == "ident" and k > 0 and trailing_return(toks, k):
            k = trailing_return(toks, k)
            continue
        return None
    return None


def trailing_return(toks, k):
    """Index before `-> type` when toks[k] ends a trailing return type."""
    j = k
    while j > 0 and (toks[j].kind == "ident" or toks[j].text in
                     ("::", "<", ">", "*", "&", ",")):
        if toks[j - 1].text == "->":
            return j - 2
        j -= 1
    return None


def initializer_list_start(toks, pairs, close):
    """For `) : a(x), b{y}` ending at close (the last `)`), the index of
    the constructor's parameter `)`; else None."""
    k = close
    while True:
        opener = pairs.get(k)
        if opener is None or opener < 2 or toks[opener - 1].kind != "ident":
            return None
        k = opener - 2
        while k >= 0 and toks[k].text == "::":
            k -= 2
        sep = toks[k].text
        if sep == ",":
            k -= 1
            if toks[k].text not in (")", "}"):
                return None
            continue
        if sep == ":" and k > 0 and toks[k - 1].text == ")":
            return k - 1
        return None


def template_name_before(toks, gt):
    """For `name<...>(`, the index of name (gt is the `>`)."""
    depth = 0
    for k in range(gt, max(gt - 40, -1), -1):
        if toks[k].text == ">":
            depth += 1
        elif toks[k].text == "<":
            depth -= 1
            if depth == 0:
                return k - 1 if k > 0 else None
    return None


def head_tokens(toks, name_at):
    """The words of a definition's head before its name (return type,
    specifiers, attributes), back to the previous declaration."""
    k = name_at - 1
    words = []
    while k >= 0 and toks[k].text not in (";", "{", "}") and len(words) < 40:
        if toks[k].text == ":" and k > 0 and toks[k - 1].text in (
                "public", "private", "protected"):
            break
        words.append(toks[k].text)
        k -= 1
    return tuple(reversed(words))


def declarations(scan):
    """{name: {class or ''}} of functions declared without a body outside
    function bodies (`virtual void Run(Ctx c) = 0;`, `int f(int);`)."""
    toks, pairs = scan.toks, scan.pairs
    inside = sorted((f.open, f.close) for f in scan.funcs)
    classes = class_bodies(toks, pairs)
    out = collections.defaultdict(set)
    for i, t in enumerate(toks[:-1]):
        if t.kind != "ident" or toks[i + 1].text != "(" or \
                t.text in KEYWORDS or i + 1 not in pairs:
            continue
        k = pairs[i + 1] + 1
        while k < len(toks) and toks[k].text in TAIL_WORDS | {
                "=", "0", "override", "default", "delete"}:
            k += 1
        if k >= len(toks) or toks[k].text != ";":
            continue
        if any(o < i < c for o, c in inside):
            continue
        owner = [c for c in classes if c[0] < i < c[1]]
        out[t.text].add(owner[-1][2] if owner else "")
    return out


def class_bodies(toks, pairs):
    """[(open, close, name)] of class/struct/union bodies."""
    out = []
    for i, t in enumerate(toks):
        if t.text not in ("class", "struct", "union"):
            continue
        k = i + 1
        name = None
        while k < len(toks) and k < i + 60:
            text = toks[k].text
            if text in (";", "(", ")", "=", ">", ","):
                break
            if text == "{":
                if name and k in pairs:
                    out.append((k, pairs[k], name))
                break
            if toks[k].kind == "ident" and text not in ("final", "public",
                                                         "private",
                                                         "protected",
                                                         "virtual"):
                if toks[k - 1].text not in (":", "public", "private",
                                             "protected", "virtual", ","):
                    name = name or text
            if text == ":" and toks[k + 1].text != ":":
                # Base list: the name is known; skip to the body.
                while k < len(toks) and toks[k].text not in ("{", ";"):
                    k += 1
                continue
            k += 1
    return out


def qualified_name(toks, name_at, classes, brace):
    """`A::B::name` from the written qualifier, else the enclosing class."""
    parts = [toks[name_at].text]
    k = name_at - 1
    while k > 0 and toks[k].text == "::" and toks[k - 1].kind == "ident":
        parts.insert(0, toks[k - 1].text)
        k -= 2
    if len(parts) == 1:
        inside = [c for c in classes if c[0] < brace < c[1]]
        if inside:
            parts.insert(0, inside[-1][2])
    return "::".join(parts)


# ---------------------------------------------------------------- roles

STOP_NAMES = set("""begin end start stop run reset init get set push pop
    record wait sync call apply execute launch operator capture main
    create destroy update""".split())
Role = collections.namedtuple("Role", "kind group")   # kind: open/close


class RepoIndex:
    """Scans of a repository's exported files (made once each) and the
    roles found in them: begin/end APIs, openers, closers and macros."""

    def __init__(self, root, apis):
        self.root = root
        self.apis = apis                     # name -> (begin|end, group)
        self.scans = {}
        self.roles = {}                      # function name -> {Role}
        self.role_defs = collections.defaultdict(list)  # name -> [Func]
        self.macros = {}                     # macro name -> {Role}
        self.macro_defs = {}                 # macro name -> (file, Define)
        self.all_defines = set()
        self.defs = collections.defaultdict(list)  # function name -> [Func]
        self._files = None
        self._texts = {}
        self.role_files = set()
        self.raii = {}                       # class -> {group} (ctor opens)
        self.guard_openers = set()           # openers returning a guard

    def scan(self, rel):
        """The FileScan of a file (cached)."""
        if rel not in self.scans:
            scan = FileScan(self.root, rel)
            self.scans[rel] = scan
            for fn in scan.funcs:
                self.defs[fn.name].append(fn)
            for d in scan.src.defines:
                self.all_defines.add(d.name)
        return self.scans[rel]

    def source_files(self):
        """Every C/C++/CUDA source or header in the export."""
        if self._files is None:
            out = []
            for dirpath, dirs, files in os.walk(self.root):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for f in sorted(files):
                    if f.endswith(SOURCE_EXT) and ".capture_lint_" not in f:
                        out.append(os.path.relpath(os.path.join(dirpath, f),
                                                   self.root))
            self._files = out
        return self._files

    def files_mentioning(self, names):
        """The export's files whose text holds one of the names."""
        if not names:
            return []
        pattern = re.compile(r"\b(%s)\b" % "|".join(
            re.escape(n) for n in sorted(names)))
        out = []
        for rel in self.source_files():
            if rel not in self._texts:
                with open(os.path.join(self.root, rel),
                          errors="replace") as f:
                    self._texts[rel] = f.read()
            if pattern.search(self._texts[rel]):
                out.append(rel)
        return out

    def find_roles(self):
        """Openers, closers and begin/end macros over the whole export,
        to a fixpoint (an opener may call another opener)."""
        known = set(self.apis)
        seen_files = set()
        for _ in range(6):
            todo = [f for f in self.files_mentioning(known)
                    if f not in seen_files]
            seen_files.update(todo)
            for rel in todo:
                self.scan(rel)
            before = (len(self.roles), len(self.macros))
            for rel in sorted(seen_files):
                self._roles_in(self.scans[rel])
            known = set(self.apis) | set(self.roles) | set(self.macros)
            self.role_files = set(seen_files)
            if (len(self.roles), len(self.macros)) == before and not todo:
                break

    def events(self, scan, lo, hi):
        """[(token index, 'begin'|'end', group, how, name)] of the calls in
        tokens lo..hi: APIs, roles (as 'open'/'close') and role macros."""
        out = []
        for call in scan.calls:
            if lo <= call.index <= hi:
                out += self._call_events(call.name, call.index)
        for i in range(lo, hi + 1):
            t = scan.toks[i]
            if t.kind == "ident" and t.text in self.macros and not (
                    i + 1 < len(scan.toks) and scan.toks[i + 1].text == "("
                    and any(c.index == i for c in scan.calls)):
                out += self._call_events(t.text, i)
        out += [guard_end(scan, e) for e in out
                if e[3] == "role" and e[1] == "begin"
                and e[4] in self.guard_openers]
        return sorted(out)

    def _call_events(self, name, index):
        """Events of one call or macro use."""
        out = []
        if name in self.apis:
            role, group = self.apis[name]
            out.append((index, role, group, "api", name))
        for r in self.roles.get(name, ()):
            out.append((index, "begin" if r.kind == "open" else "end",
                        r.group, "role", name))
        for r in self.macros.get(name, ()):
            kinds = {"open": ["begin"], "close": ["end"],
                     "region": ["begin", "end"]}[r.kind]
            for kind in kinds:
                out.append((index, kind, r.group, "macro", name))
        return out

    def _ends_later(self, scan, fn):
        """Whether fn's body holds a deferred lambda that ends a capture
        (an opener that returns a guard)."""
        for o, e in scan.deferred:
            if fn.open < o < e < fn.close and any(
                    self.apis.get(t.text, ("",))[0] == "end"
                    or Role("close", g) in self.roles.get(t.text, ())
                    for t in scan.toks[o:e] for g in ("cuda-stream",
                                                      "hip-stream")):
                return True
        return False

    def _roles_in(self, scan):
        """Adds the roles of scan's functions and #defines."""
        for fn in scan.funcs:
            for role in body_roles(self.events(scan, fn.open, fn.close)):
                if fn.name in STOP_NAMES:
                    continue
                self.roles.setdefault(fn.name, set()).add(role)
                if fn not in self.role_defs[fn.name]:
                    self.role_defs[fn.name].append(fn)
                if role.kind == "open" and self._ends_later(scan, fn):
                    self.guard_openers.add(fn.name)
                parts = fn.qual.split("::")
                if (role.kind == "open" and len(parts) > 1
                        and parts[-1] == parts[-2]):
                    self.raii.setdefault(fn.name, set()).add(role.group)
        for fn in scan.funcs:
            made = returns_guard(scan, fn, self.raii)
            if made and fn.name not in STOP_NAMES:
                for group in self.raii[made]:
                    self.roles.setdefault(fn.name, set()).add(
                        Role("open", group))
                self.guard_openers.add(fn.name)
                if fn not in self.role_defs[fn.name]:
                    self.role_defs[fn.name].append(fn)
        for d in scan.src.defines:
            ev = []
            for i, t in enumerate(d.body):
                nxt = d.body[i + 1].text if i + 1 < len(d.body) else ""
                if t.kind == "ident" and (nxt == "(" or t.text in self.macros):
                    ev += self._call_events(t.text, i)
            roles = body_roles(sorted(ev))
            groups_both = {g for _, k, g, _, _ in ev if k == "begin"} & {
                g for _, k, g, _, _ in ev if k == "end"}
            roles |= {Role("region", g) for g in groups_both}
            if roles:
                self.macros.setdefault(d.name, set()).update(roles)
                self.macro_defs[d.name] = (scan.rel, d)


def returns_guard(scan, fn, raii):
    """The RAII class that fn returns an object of (`return
    CaptureContext{*this};`), or None."""
    toks = scan.toks
    for k in range(fn.open + 1, fn.close - 1):
        if (toks[k].text == "return" and toks[k + 1].text in raii
                and toks[k + 2].text in ("(", "{")):
            return toks[k + 1].text
    return None


def guard_end(scan, event):
    """The end event for a call of an opener that returns a guard: the end
    of the block when the guard is bound to a local (`auto g =
    graph.capture_guard(s);`), else the end of the statement (a
    temporary)."""
    toks, pairs = scan.toks, scan.pairs
    i = event[0]
    k, bound = i - 1, False
    while k > 0 and toks[k].text not in (";", "{", "}"):
        if toks[k].text in (")", "]") and k in pairs:
            k = pairs[k]
        elif (toks[k].text == "=" and toks[k - 1].kind == "ident"
              and (toks[k - 2].kind == "ident"
                   or toks[k - 2].text in (">", "&", "&&", "*"))):
            bound = True
        k -= 1
    end = i
    if bound:
        blocks = enclosing_blocks(scan, i)
        end = blocks[0][1] if blocks else len(toks) - 1
    else:
        while end < len(toks) - 1 and toks[end].text != ";":
            end = pairs.get(end, end) + 1 if toks[end].text in "([{" \
                else end + 1
    return (end, "end", event[2], "guard", event[4])


def body_roles(events):
    """{Role} of a body from its events: 'open' for a group whose last
    begin comes after its last end, 'close' for an end before any begin; a
    pause/resume body (end, then begin) gets neither."""
    roles = set()
    for group in {e[2] for e in events}:
        kinds = [e[1] for e in events if e[2] == group]
        opens = kinds and kinds[-1] == "begin"
        closes = "end" in kinds and (
            "begin" not in kinds or kinds.index("end") < kinds.index("begin"))
        if opens and closes:
            continue
        if opens:
            roles.add(Role("open", group))
        elif closes:
            roles.add(Role("close", group))
    return roles


# ---------------------------------------------------------------- regions

Region = collections.namedtuple(
    "Region", "file line index kind group name func end_index note")


def find_regions(index, rel):
    """The regions that begin in one file: begin API calls, calls of
    openers and uses of begin macros, inside function bodies, except those
    in the body of an opener of the same group (the wrapper itself) unless
    no later end follows them there (an opener's own tail).  Returns
    (regions, [(line, why)] of begins left out)."""
    scan = index.scan(rel)
    regions, left_out = [], []
    for fn in scan.funcs:
        events = index.events(scan, fn.open, fn.close)
        fn_roles = index.roles.get(fn.name, set()) if any(
            f is fn for f in index.role_defs.get(fn.name, ())) else set()
        for k, (i, kind, group, how, name) in enumerate(events):
            if kind != "begin":
                continue
            later_end = next((e[0] for e in events[k + 1:]
                              if e[2] == group and e[1] == "end"), None)
            opener_here = Role("open", group) in fn_roles
            if how == "api" and later_end is None and opener_here:
                rkind = "opener-tail"
            elif how == "api":
                rkind = "begin"
            elif opener_here and later_end is None:
                left_out.append((scan.toks[i].line, "call of %s in the body "
                                 "of opener %s" % (name, fn.qual)))
                continue
            elif how == "macro" and later_end == i:
                rkind = "macro-region"
            else:
                rkind = "opener-call" if how == "role" else "macro"
            regions.append(Region(rel, scan.toks[i].line, i, rkind, group,
                                  name, fn, later_end if later_end is not None
                                  else fn.close, ""))
    regions += raii_regions(index, scan)
    begin_lines = {r.line for r in regions}
    for i, t in enumerate(scan.toks):
        if t.kind != "ident" or t.line in begin_lines:
            continue
        if t.text in index.macros or (t.text in index.apis and
                                      index.apis[t.text][0] == "begin"):
            if scan.func_at(i) is None:
                left_out.append((t.line, "%s outside a function body (a "
                                 "macro that defines functions?)" % t.text))
    return regions, left_out


def raii_regions(index, scan):
    """Regions begun by declaring an object whose constructor opens a
    capture (`Guard g(s);`): they last to the end of the enclosing
    block."""
    out = []
    toks = scan.toks
    for i in range(len(toks) - 2):
        t = toks[i]
        if (t.kind != "ident" or t.text not in index.raii
                or toks[i + 1].kind != "ident"
                or toks[i + 2].text not in ("(", "{", ";", "=")
                or i > 0 and toks[i - 1].text in (".", "->", "~")):
            continue
        fn = scan.func_at(i)
        if fn is None or fn.qual.split("::")[0] == t.text:
            continue
        blocks = enclosing_blocks(scan, i)
        end = blocks[0][1] if blocks else fn.close
        for group in sorted(index.raii[t.text]):
            out.append(Region(scan.rel, t.line, i, "raii", group, t.text,
                              fn, end, ""))
    return out


# ---------------------------------------------------------------- callees

STD_MEMBERS = set("""size data begin end cbegin cend rbegin rend empty clear
    push_back emplace_back pop_back front back at find insert erase count
    resize reserve swap get reset release c_str str length value has_value
    load store exchange lock unlock try_lock wait notify_one notify_all join
    first second substr append compare""".split())


class CalleeFinder:
    """Picks calls below a region: functions of the translation unit
    (files and lines clang -E kept) defined once, on the host, with no
    capture role, followed to depth 3 where a chain exists."""

    def __init__(self, index, active):
        self.index = index
        self.active = active
        self.files = [rel for rel in sorted(active)
                      if os.path.isfile(os.path.join(index.root, rel))]
        self._eligible = {}
        self._classes = None
        self.defines = {}
        for rel in self.files:
            for d in index.scan(rel).src.defines:
                self.defines.setdefault(d.name, d)

    def head_words(self, fn):
        """The definition's head with macros expanded (a few levels)."""
        words, todo = set(), list(fn.head)
        for _ in range(200):
            if not todo:
                break
            w = todo.pop()
            if w in words:
                continue
            words.add(w)
            d = self.defines.get(w)
            if d is not None and d.params is None:
                todo += [t.text for t in d.body]
        return words

    def eligible(self, name, skip):
        """The one active host definition of name, or None."""
        if name not in self._eligible:
            self._eligible[name] = self._eligible_uncached(name)
        fn = self._eligible[name]
        return None if fn is None or fn in skip else fn

    def _eligible_uncached(self, name):
        """eligible() without the cache and the skip list."""
        if (name in self.index.apis or name in self.index.roles
                or name in self.index.macros or name in self.defines
                or name in KEYWORDS):
            return None
        defs = [fn for fn in self.index.defs.get(name, ())
                if fn.file in self.active
                and fn.line in self.active[fn.file]]
        if len(defs) != 1:
            return None
        fn = defs[0]
        parts = fn.qual.split("::")
        own = parts[-2] if len(parts) > 1 else ""
        if own not in self.class_names():
            own = ""        # a namespace
        for rel in self.files:
            scan = self.index.scan(rel)
            if scan.declared.get(name, set()) - {own, ""} or (
                    own and "" in scan.declared.get(name, set())
                    and rel != fn.file):
                return None
        head = self.head_words(fn)
        if head & {"constexpr", "consteval", "~"}:
            return None
        if "__global__" in head or ("__device__" in head
                                    and "__host__" not in head):
            return None
        scan = self.index.scan(fn.file)
        if self.index.events(scan, fn.open, fn.close):
            return None
        return fn

    def class_names(self):
        """Names of the classes the translation unit's files define."""
        if self._classes is None:
            self._classes = set()
            for rel in self.files:
                scan = self.index.scan(rel)
                self._classes.update(c[2] for c in class_bodies(scan.toks,
                                                                scan.pairs))
        return self._classes

    def _std_member(self, call):
        """A member call whose name a standard container or smart pointer
        has (`v.size()`): not resolved by name."""
        return call.member and call.name in STD_MEMBERS

    def calls_in(self, scan, lo, hi):
        """Names of the calls in tokens lo..hi, in order, each once, but
        not those in an else branch of an if whose branch holds lo."""
        seen, out = set(), []
        for call in scan.calls:
            if (lo < call.index < hi and call.name not in seen
                    and not self._std_member(call)
                    and not other_branch(scan, lo, call.index)):
                seen.add(call.name)
                out.append(call)
                if len(out) == 40:
                    break
        return out

    def chain(self, scan, lo, hi, skip=(), depth=3):
        """The longest chain [f1, f2, ...] (at most depth) of eligible
        callees starting from a call in tokens lo..hi of scan."""
        best = []
        for call in self.calls_in(scan, lo, hi):
            fn = self.eligible(call.name, skip)
            if fn is None:
                continue
            here = [fn]
            if depth > 1:
                below = self.index.scan(fn.file)
                here += self.chain(below, fn.open, fn.close,
                                   tuple(skip) + (fn,), depth - 1)
            if len(here) > len(best):
                best = here
            if len(best) == depth:
                break
        return best


def other_branch(scan, b, c):
    """Whether token c lies in another branch of an if/else chain that
    token b lies in (so that c does not run after b)."""
    toks, pairs = scan.toks, scan.pairs
    for o, close in enclosing_blocks(scan, c):
        if o < b < close:
            return False
        k = o - 1
        while k > 0:
            if toks[k].text == ")" and k in pairs and pairs[k] > 1 and \
                    toks[pairs[k] - 1].text == "if":
                k = pairs[k] - 2
            if toks[k].text != "else" or toks[k - 1].text != "}":
                break
            prev_close = k - 1
            prev_open = pairs.get(prev_close)
            if prev_open is None:
                break
            if prev_open < b < prev_close:
                return True
            k = prev_open - 1
    return False


def enclosing_blocks(scan, c):
    """[(open, close)] of the brace blocks around token c, innermost
    first."""
    out, k = [], c
    toks, pairs = scan.toks, scan.pairs
    while k > 0:
        k -= 1
        if toks[k].text == "}" and k in pairs:
            k = pairs[k]
        elif toks[k].text == "{" and pairs.get(k, -1) > c:
            out.append((k, pairs[k]))
    return out


def macro_begin(index, name, group, depth=0):
    """(file, Define, token index in its body) of the begin API call that a
    region macro expands to (following the macros it uses), or None."""
    if name not in index.macro_defs or depth > 8:
        return None
    rel, d = index.macro_defs[name]
    for j, t in enumerate(d.body):
        api = index.apis.get(t.text)
        if api == ("begin", group):
            return rel, d, j
    for t in d.body:
        if t.text != name and any(r.group == group for r in
                                  index.macros.get(t.text, ())):
            found = macro_begin(index, t.text, group, depth + 1)
            if found:
                return found
    return None
