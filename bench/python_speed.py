#!/usr/bin/env python3
"""Speed of capture-lint on Python, against CPython's own parser side by side.

Runs, in alternation over rounds (so machine noise hits all alike):
  lint:      capture-lint --quiet --report-only TREE
  lint-all:  the same on a copy of TREE where every file mentions "graph",
             so the pre-parse filter passes them all and every file is
             parsed, indexed and walked (the worst case)
  ast:       python3 -c "ast.parse" over every file of TREE (the baseline)
and reports lines of Python per CPU second (user+sys, one core each: all
three are single-threaded here, capture-lint with -j1) and the ratio to the
baseline. Target: at least 100k lines/s/core.

  bench/python_speed.py [--rounds N] [--build BUILD_DIR] [TREE]

TREE defaults to Debian's python3-torch (/usr/lib/python3/dist-packages/torch).
"""
import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def py_files(tree):
    out = []
    for d, dirs, files in os.walk(tree):
        dirs[:] = [x for x in dirs if not x.startswith(".") and x != "__pycache__"]
        out += [os.path.join(d, f) for f in files if f.endswith(".py")]
    return sorted(out)


def cpu_of(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("tree", nargs="?", default="/usr/lib/python3/dist-packages/torch")
    a = ap.parse_args()
    lint = os.path.join(a.build, "tool", "capture-lint", "capture-lint")
    files = py_files(a.tree)
    lines = 0
    for f in files:
        with open(f, "rb") as fh:
            lines += fh.read().count(b"\n")
    tmp = tempfile.mkdtemp(prefix="capture-lint-bench-")
    try:
        copy = os.path.join(tmp, os.path.basename(a.tree.rstrip("/")))
        for f in files:
            dst = os.path.join(copy, os.path.relpath(f, a.tree))
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(f, dst)
            with open(dst, "a") as fh:
                fh.write("\n# graph\n")
        listing = os.path.join(tmp, "files.txt")
        with open(listing, "w") as fh:
            fh.write("\n".join(files))
        ast_cmd = [sys.executable, "-c",
                   "import ast,sys\n"
                   "for p in open(sys.argv[1]).read().split('\\n'):\n"
                   "    try: ast.parse(open(p, 'rb').read())\n"
                   "    except Exception: pass\n", listing]
        runs = {"lint": [], "lint-all": [], "ast": []}
        for _ in range(a.rounds):
            runs["lint"].append(cpu_of([lint, "--quiet", "--report-only", "-j1", a.tree]))
            runs["lint-all"].append(cpu_of([lint, "--quiet", "--report-only", "-j1", copy]))
            runs["ast"].append(cpu_of(ast_cmd))
    finally:
        shutil.rmtree(tmp)
    print("%d files, %d lines of Python in %s" % (len(files), lines, a.tree))
    base = statistics.median(runs["ast"])
    for name, secs in runs.items():
        m = statistics.median(secs)
        print("%-9s %6.2f s CPU  %8.0f lines/s/core  %.2fx the ast.parse baseline's time"
              % (name, m, lines / m, m / base))


if __name__ == "__main__":
    main()
