#!/usr/bin/env python3
"""Runs the runnable command blocks of the README and docs/ and checks that
what they show is what the tools print (issue 14, item 7: docs drift).

A fenced block whose info string is `console` is runnable: each line that
starts with `$ ` is a command, run with bash from the repository root with
the built tools first on PATH; the lines after it, up to the next command,
are the output it must show. Docs wrap long messages and leave out source
snippets, so the comparison is on words: snippet lines (`  12 | ...`,
`     |  ^`) are dropped from the real output, whitespace is collapsed, and
each shown diagnostic (a line starting `file:line:col: `) or other line must
appear in the real output, in order; a line `...` stands for output left
out. A shown `file.py:3:1:` matches a real `dir/file.py:3:1:` (docs may name
files briefly).

    check_doc_commands.py REPO_ROOT TOOLS_DIR [TOOLS_DIR...]

Prints one line per command and exits 1 if any shows what the tool does not
print (with the first missing piece), 2 on a usage error.
"""
import os
import re
import subprocess
import sys

SNIPPET = re.compile(r"^\s*\d*\s\|")
HEADER = re.compile(r"^\S+:\d+:\d+: (error|warning|note|remark): ")


def blocks(path):
    """(line number, [lines]) of each console block in a Markdown file."""
    out, current, start = [], None, 0
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if current is None and line.strip() == "```console":
                current, start = [], n
            elif current is not None and line.strip() == "```":
                out.append((start, current))
                current = None
            elif current is not None:
                current.append(line)
    return out


def commands(lines):
    """(command, shown output lines) pairs of one block."""
    out = []
    for line in lines:
        if line.startswith("$ "):
            out.append((line[2:], []))
        elif out:
            out[-1][1].append(line)
    return out


def pieces(shown):
    """The shown output cut into diagnostics (a header line and the lines
    wrapped after it) and other lines, each with whitespace collapsed."""
    out = []
    for line in shown:
        if not line.strip() or line.strip() == "...":
            continue
        if HEADER.match(line) or not out or not out[-1][1]:
            out.append([line, bool(HEADER.match(line))])
        else:
            out[-1][0] += " " + line
    return [" ".join(p[0].split()) for p in out]


def normalized(text):
    lines = [l for l in text.splitlines() if not SNIPPET.match(l)]
    return " ".join(" ".join(lines).split())


def check(root, command, shown, env):
    proc = subprocess.run(["bash", "-c", command], cwd=root, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          timeout=300)
    real = normalized(proc.stdout.decode(errors="replace"))
    at = 0
    for piece in pieces(shown):
        found = real.find(piece, at)
        if found < 0:
            return "not printed: " + piece[:200]
        at = found + len(piece)
    return None


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    root = os.path.abspath(sys.argv[1])
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join(
        [os.path.abspath(p) for p in sys.argv[2:]] + [env.get("PATH", "")])
    docs = [os.path.join(root, "README.md")]
    for d, _, files in os.walk(os.path.join(root, "docs")):
        docs += [os.path.join(d, f) for f in sorted(files) if f.endswith(".md")]
    failed = ran = 0
    for doc in docs:
        for line, block in blocks(doc):
            for command, shown in commands(block):
                ran += 1
                problem = check(root, command, shown, env)
                where = "%s:%d" % (os.path.relpath(doc, root), line)
                if problem:
                    failed += 1
                    print("FAIL %s: $ %s\n     %s" % (where, command, problem))
                else:
                    print("ok   %s: $ %s" % (where, command))
    print("%d commands from the docs, %d show what the tools print" %
          (ran, ran - failed))
    if ran == 0:
        print("no runnable (console) blocks found", file=sys.stderr)
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
