#!/usr/bin/env python3
"""The project's self-lint (issue 25, item 7): clang-tidy-19 with
tests/selflint/clang-tidy.yaml over the analyses and the driver
(checks/core, checks/python, checks/findings, tool/driver), using the build's
compile_commands.json.

Every warning fails, but for functions longer than 60 lines listed in
tests/selflint/long-functions.txt ("FILE FUNCTION" per line): the functions
that were longer when the limit came. The list only shrinks: a function that
is listed but no longer too long fails too, so that its line is removed
when it is split, and a new long function is never listed, only split.

  tests/selflint/selflint.py BUILD_DIR [CLANG_TIDY [LIST]]

LIST: another list of long functions (the tests of this script).
"""
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
SCOPE = ("checks/core/", "checks/python/lib/", "checks/findings/",
         "tool/driver/")
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
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(lambda f: lint(tidy, build, f), files))
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
