#!/usr/bin/env python3
"""The project's self-lint (issue 25, item 7): clang-tidy-19 with
tests/selflint/clang-tidy.yaml over the analyses, the driver and the probe's
core, CUDA backend and command (checks/core, checks/python, checks/findings,
tool/driver, runtime_probe/core, runtime_probe/cuda, runtime_probe/tool),
using the build's compile_commands.json.

Every warning fails, but for functions longer than 60 lines listed in
tests/selflint/long-functions.txt ("FILE FUNCTION" per line): the functions
that were longer when the limit came. The list only shrinks: a function that
is listed but no longer too long fails too, so that its line is removed
when it is split, and a new long function is never listed, only split.

  tests/selflint/selflint.py BUILD_DIR [CLANG_TIDY [LIST]]

LIST: another list of long functions (the tests of this script).

A GCC build's precompiled headers (cmake_pch.hxx.gch) are of no use to
clang-tidy, which parsed clang's own headers again for every file: this
script first builds a clang one beside each (cmake_pch.hxx.pch, made again on
every run from the command of a file that includes it), which the driver
then takes for the -include, as clang does for its own builds. Every file is
still linted with its own command; where a header cannot be built the files
that include it are linted without one. A file clang-tidy cannot compile is
a problem, not a pass.
"""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
SCOPE = ("checks/core/", "checks/python/lib/", "checks/findings/",
         "tool/driver/", "runtime_probe/core/", "runtime_probe/cuda/",
         "runtime_probe/tool/")
WARNING = re.compile(r"^(/\S+?):(\d+):(\d+): warning: (.*) \[([\w.-]+)\]$")
TOO_LONG = re.compile(r"function '([^']+)' exceeds recommended size")


def sources(build):
    with open(os.path.join(build, "compile_commands.json")) as f:
        entries = json.load(f)
    out = set()
    for e in entries:
        path = os.path.normpath(os.path.join(e["directory"], e["file"]))
        rel = os.path.relpath(path, ROOT)
        if rel.startswith(SCOPE) and not rel.startswith("..") \
                and rel.endswith(".cpp"):
            out.add(rel)
    return sorted(out)


def pch_commands(build, clang):
    """The clang command that builds each GCC precompiled header's clang
    counterpart: the flags of the first file in scope that includes it."""
    with open(os.path.join(build, "compile_commands.json")) as f:
        entries = json.load(f)
    out = {}
    for e in entries:
        path = os.path.normpath(os.path.join(e["directory"], e["file"]))
        if not os.path.relpath(path, ROOT).startswith(SCOPE):
            continue
        args = e.get("arguments") or shlex.split(e["command"])
        if "-include" not in args:
            continue
        header = args[args.index("-include") + 1]
        if not header.endswith("cmake_pch.hxx") or header in out:
            continue
        flags, skip = [], False
        for i, a in enumerate(args[1:], 1):
            if skip:
                skip = False
            elif a in ("-o", "-c", "-include", "-MF", "-MT", "-MQ"):
                skip = True
            elif a in ("-MD", "-MMD", path, e["file"]) or a.startswith("-W"):
                continue
            else:
                flags.append(a)
        out[header] = (e["directory"], [clang] + flags + [
            "-Wno-pragma-system-header-outside-header", "-x", "c++-header",
            header, "-o", header + ".pch.tmp"])
    return out


def build_pch(item):
    header, (directory, command) = item
    target = header + ".pch"
    if os.path.exists(target):
        os.remove(target)  # never a stale one
    proc = subprocess.run(command, cwd=directory, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)
    if proc.returncode == 0:
        os.replace(header + ".pch.tmp", target)
        return True
    if os.path.exists(header + ".pch.tmp"):
        os.remove(header + ".pch.tmp")
    return False


def lint(tidy, build, rel):
    proc = subprocess.run(
        [tidy, "-p", build, "--quiet",
         "--config-file=" + os.path.join(ROOT, "tests", "selflint",
                                         "clang-tidy.yaml"),
         os.path.join(ROOT, rel)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    found = []
    for line in proc.stdout.splitlines():
        m = WARNING.match(line)
        if m:
            found.append((os.path.relpath(m.group(1), ROOT), int(m.group(2)),
                          m.group(4), m.group(5)))
    if proc.returncode != 0:
        # A compiler error: clang-tidy saw no function of the file.
        found.append((rel, 0, "clang-tidy could not compile it (exit %d): "
                      "run %s -p %s %s" % (proc.returncode, tidy, build, rel),
                      "clang-diagnostic-error"))
    return found


def listed(path):
    out = set()
    with open(path) as f:
        for line in f:
            line = line.split("#")[0].strip()
            if line:
                file, function = line.split()
                out.add((file, function))
    return out


def main():
    if len(sys.argv) not in (2, 3, 4):
        sys.exit(__doc__)
    build = os.path.abspath(sys.argv[1])
    tidy = sys.argv[2] if len(sys.argv) >= 3 else "clang-tidy-19"
    long_list = sys.argv[3] if len(sys.argv) == 4 else os.path.join(
        ROOT, "tests", "selflint", "long-functions.txt")
    files = sources(build)
    if not files:
        print("self-lint: no sources of %s in %s/compile_commands.json"
              % (", ".join(SCOPE), build), file=sys.stderr)
        return 1
    clang = os.path.join(os.path.dirname(os.path.realpath(
        shutil.which(tidy) or tidy)), "clang++")
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        if os.path.exists(clang):
            list(pool.map(build_pch, pch_commands(build, clang).items()))
        # The largest files first, so that no core waits at the end.
        order = sorted(files, key=lambda f: -os.path.getsize(
            os.path.join(ROOT, f)))
        results = list(pool.map(lambda f: lint(tidy, build, f), order))
    allowed = listed(long_list)
    seen_long, problems = set(), []
    for found in results:
        for file, line, message, check in found:
            if not file.startswith(SCOPE):
                continue  # a header outside the scope
            m = TOO_LONG.match(message)
            if m and check == "readability-function-size":
                key = (file, m.group(1))
                seen_long.add(key)
                if key in allowed:
                    continue
                message = ("function '%s' is longer than 60 lines: split it "
                           "along what it does" % m.group(1))
            problems.append("%s:%d: %s [%s]" % (file, line, message, check))
    for file, function in sorted(allowed - seen_long):
        problems.append("%s: '%s %s' is no longer too long (or gone): "
                        "remove its line" % (os.path.basename(long_list),
                                             file, function))
    for p in sorted(set(problems)):
        print("self-lint: " + p)
    print("self-lint: %d files, %d problems, %d listed long functions left"
          % (len(files), len(set(problems)), len(allowed & seen_long)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
