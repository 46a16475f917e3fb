#!/usr/bin/env python3
"""What `capture-lint summarize` costs per translation unit, against
`clang++-19 -fsyntax-only` with the same flags, side by side.

Configures the bundled example (examples/decode_loop, nvcc and the real
CUDA headers) with CMake, exports the compile database as capture-lint
translates it for clang (`--export-compile-db`), and for R rounds
(alternating, so machine noise hits both alike) runs, for every TU:
  syntax:    the exported clang command with -fsyntax-only (parsing alone)
  summarize: capture-lint summarize FILE -p DB -o OUT (parse, analyse,
             summarize, write)
reporting CPU seconds per TU (medians over rounds) and the ratio
summarize / syntax (target, issue 30: at most 1.05x).

  bench/summarize_cost.py [--rounds R] [--build BUILD_DIR]
"""
import argparse
import json
import os
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cpu_of(cmd, cwd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode not in (0, 1):
        sys.exit("failed: %s\n%s" % (" ".join(cmd), r.stderr[-2000:]))
    return (after.ru_utime - before.ru_utime) + (after.ru_stime -
                                                 before.ru_stime)


def syntax_command(entry):
    args = entry.get("arguments") or shlex.split(entry["command"])
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a == "-o":
            skip = True
            continue
        if a == "-c":
            continue
        out.append(a)
    return out + ["-fsyntax-only"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    a = ap.parse_args()
    lint = os.path.join(a.build, "tool", "capture-lint", "capture-lint")
    tmp = tempfile.mkdtemp(prefix="capture-lint-summarize-cost-")
    try:
        build = os.path.join(tmp, "build")
        subprocess.run(["cmake", "-S",
                        os.path.join(ROOT, "examples", "decode_loop"),
                        "-B", build, "-G", "Ninja",
                        "-DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc"],
                       check=True, stdout=subprocess.DEVNULL)
        clang_db = os.path.join(tmp, "clang-db")
        subprocess.run([lint, "--quiet", "-p", build,
                        "--export-compile-db=" + clang_db], check=True)
        with open(os.path.join(clang_db, "compile_commands.json")) as f:
            entries = json.load(f)
        times = {}
        for _ in range(a.rounds):
            for e in entries:
                name = os.path.basename(e["file"])
                t = times.setdefault(name, {"syntax": [], "summarize": []})
                t["syntax"].append(cpu_of(syntax_command(e), e["directory"]))
                t["summarize"].append(cpu_of(
                    [lint, "summarize", "--quiet", e["file"], "-p", build,
                     "-o", os.path.join(tmp, name + ".sum")], build))
        total = {"syntax": 0.0, "summarize": 0.0}
        print("%d TUs of examples/decode_loop (real CUDA headers), %d "
              "rounds, CPU seconds (medians)" % (len(entries), a.rounds))
        for name, t in sorted(times.items()):
            s, z = statistics.median(t["syntax"]), statistics.median(
                t["summarize"])
            total["syntax"] += s
            total["summarize"] += z
            print("  %-14s clang -fsyntax-only %5.2f s   summarize %5.2f s"
                  "   %.2fx" % (name, s, z, z / s))
        print("all TUs: clang -fsyntax-only %.2f s, summarize %.2f s: "
              "%.2fx (target <= 1.05x)" % (total["syntax"],
                                            total["summarize"],
                                            total["summarize"] /
                                            total["syntax"]))
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
