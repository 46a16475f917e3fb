"""A small C/C++/CUDA tokenizer for the region discovery (no clang).

It drops comments and the inactive side of `#if 0` / `#if false` (and the
`#else` side of `#if 1`), keeps every other conditional branch, and records
`#define` bodies and `#include` names apart from the code's tokens.  Enough
to find calls, function bodies and statement ends by text; not a parser.
"""

import collections
import re

Token = collections.namedtuple("Token", "kind text line col")
Define = collections.namedtuple("Define", "name params body line")

PUNCT3 = ("<<<", "...", "->*")
PUNCT2 = ("::", "->", "&&", "||", "==", "!=", "<=", ">=", "+=", "-=", "*=",
          "/=", "|=", "&=", "^=", "++", "--", "<<", ".*")
IDENT = re.compile(r"[A-Za-z_$][A-Za-z_0-9$]*")
NUMBER = re.compile(r"\.?[0-9](?:[eEpP][+-]|[A-Za-z0-9_.']|)*")
RAW_PREFIX = re.compile(r'(?:u8|u|U|L)?R"([^()\\ \t\n]{0,16})\(')
STR_PREFIX = re.compile(r"(?:u8|u|U|L)?(['\"])")


class Source:
    """One file's tokens (code only), its #defines and #include names."""

    def __init__(self, text):
        self.text = text
        self.tokens = []
        self.defines = []
        self.includes = []
        _Lexer(self).run()


def logical_lines(text):
    """Yields (first physical line number, logical line, [(offset in the
    logical line, physical line, column)]) joining backslash-newlines."""
    phys = text.split("\n")
    i = 0
    while i < len(phys):
        start = i
        parts, marks = [], []
        length = 0
        while True:
            line = phys[i]
            marks.append((length, i + 1))
            if line.endswith("\\") and i + 1 < len(phys):
                parts.append(line[:-1])
                length += len(line) - 1
                i += 1
                continue
            parts.append(line)
            i += 1
            break
        yield start + 1, "".join(parts), marks


def _position(marks, off):
    """Physical (line, column) of an offset in a logical line."""
    line, base = marks[0][1], 0
    for start, phys in marks:
        if start <= off:
            line, base = phys, start
    return line, off - base + 1


class _Lexer:
    """Tokenizes a Source's text, line by line, tracking block comments and
    raw strings across lines."""

    def __init__(self, src):
        self.src = src
        self.in_comment = False
        self.raw_end = None       # the ")delim\"" closing an open raw string
        self.skip_depth = 0       # > 0 inside an inactive #if branch
        self.cond = []            # per open #if: "dead", "live" or "keep"

    def run(self):
        """Tokenizes every logical line, handing directives apart."""
        for first, text, marks in logical_lines(self.src.text):
            stripped = self._strip_comments_only(text)
            if (not self.in_comment and self.raw_end is None
                    and stripped.lstrip().startswith("#")):
                self._directive(stripped.lstrip()[1:].strip(), first, text,
                                marks)
                continue
            if self.skip_depth:
                continue
            self._lex(text, marks, self.src.tokens)

    def _strip_comments_only(self, text):
        """The line with a leading block-comment tail removed (to see a
        directive that follows one); the state is not changed."""
        if self.in_comment:
            end = text.find("*/")
            return "" if end < 0 else text[end + 2:]
        return text

    def _directive(self, body, line, text, marks):
        """Follows #if nesting (dropping `#if 0` sides) and records
        #define and #include."""
        word = IDENT.match(body)
        word = word.group(0) if word else ""
        rest = body[len(word):].strip()
        rest = re.sub(r"//.*$", "", rest)
        rest = re.sub(r"/\*.*?\*/", " ", rest).strip()
        if word in ("if", "ifdef", "ifndef"):
            if self.skip_depth:
                self.skip_depth += 1
                self.cond.append("nested")
                return
            if word == "if" and re.fullmatch(r"\(?\s*(0|false)\s*\)?", rest):
                self.cond.append("dead")
                self.skip_depth = 1
            elif word == "if" and re.fullmatch(r"\(?\s*(1|true)\s*\)?", rest):
                self.cond.append("one")
            else:
                self.cond.append("keep")
            return
        if word in ("elif", "else", "elifdef", "elifndef"):
            top = self.cond[-1] if self.cond else "keep"
            if top == "nested":
                return
            if top == "dead":
                self.skip_depth = 0
                self.cond[-1] = "keep"
            elif top == "one":
                self.cond[-1] = "dead-rest"
                self.skip_depth = 1
            return
        if word == "endif":
            top = self.cond.pop() if self.cond else "keep"
            if top == "nested":
                self.skip_depth -= 1
            elif top in ("dead", "dead-rest"):
                self.skip_depth = 0
            return
        if self.skip_depth:
            return
        if word == "define":
            self._define(text, marks)
        elif word == "include":
            m = re.match(r'["<]([^">]+)[">]', rest)
            if m:
                self.src.includes.append((m.group(1), line))

    def _define(self, text, marks):
        """Records `#define NAME(params) body` with the body's tokens."""
        toks = []
        self._lex(text, marks, toks)
        # toks: '#' 'define' NAME ['(' params ')'] body...
        if len(toks) < 3 or toks[2].kind != "ident":
            return
        name = toks[2]
        body_at, params = 3, None
        if (len(toks) > 3 and toks[3].text == "("
                and toks[3].line == name.line
                and toks[3].col == name.col + len(name.text)):
            close = 3
            while close < len(toks) and toks[close].text != ")":
                close += 1
            params = [t.text for t in toks[4:close] if t.kind == "ident"
                      or t.text == "..."]
            body_at = close + 1
        self.src.defines.append(Define(name.text, params, toks[body_at:],
                                       name.line))

    def _lex(self, text, marks, out):
        """Appends the tokens of one logical line to out."""
        i, n = 0, len(text)
        while i < n:
            if self.in_comment:
                end = text.find("*/", i)
                if end < 0:
                    return
                self.in_comment = False
                i = end + 2
                continue
            if self.raw_end is not None:
                end = text.find(self.raw_end, i)
                if end < 0:
                    return
                i = end + len(self.raw_end)
                self.raw_end = None
                continue
            c = text[i]
            if c in " \t\r\f\v":
                i += 1
                continue
            if text.startswith("//", i):
                return
            if text.startswith("/*", i):
                self.in_comment = True
                i += 2
                continue
            i = self._lex_one(text, i, marks, out)

    def _lex_one(self, text, i, marks, out):
        """Lexes one token at i; returns the offset after it."""
        line, col = _position(marks, i)
        m = RAW_PREFIX.match(text, i)
        if m:
            end = text.find(")" + m.group(1) + '"', m.end())
            out.append(Token("str", 'R""', line, col))
            if end < 0:
                self.raw_end = ")" + m.group(1) + '"'
                return len(text)
            return end + len(m.group(1)) + 2
        m = STR_PREFIX.match(text, i)
        if m:
            quote, j = m.group(1), m.end()
            while j < len(text) and text[j] != quote:
                j += 2 if text[j] == "\\" else 1
            out.append(Token("str" if quote == '"' else "char",
                             text[i:j + 1], line, col))
            return j + 1
        m = IDENT.match(text, i)
        if m:
            out.append(Token("ident", m.group(0), line, col))
            return m.end()
        m = NUMBER.match(text, i)
        if m:
            out.append(Token("num", m.group(0), line, col))
            return m.end()
        for group in (PUNCT3, PUNCT2):
            for p in group:
                if text.startswith(p, i):
                    out.append(Token("punct", p, line, col))
                    return i + len(p)
        out.append(Token("punct", text[i], line, col))
        return i + 1


def match_brackets(tokens):
    """Index of the matching bracket for every (, [, { and ) ] } (a dict);
    an unbalanced bracket maps to nothing."""
    pairs, stack = {}, []
    close = {")": "(", "]": "[", "}": "{"}
    for i, t in enumerate(tokens):
        if t.kind != "punct":
            continue
        if t.text in "([{":
            stack.append(i)
        elif t.text in close:
            # Pop to the nearest opener of this kind (an #if-kept branch can
            # leave an extra bracket behind).
            for k in range(len(stack) - 1, -1, -1):
                if tokens[stack[k]].text == close[t.text]:
                    pairs[stack[k]] = i
                    pairs[i] = stack[k]
                    del stack[k:]
                    break
    return pairs
