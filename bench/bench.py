#!/usr/bin/env python3
"""Speed of capture-lint against the parse floor, run side by side.

For each input file, runs in alternation (so machine noise hits all alike):
  floor:   clang++-19 -fsyntax-only FLAGS FILE
  lint:    capture-lint --quiet FILE -- FLAGS
  tidy:    clang-tidy-19 -load=libCaptureLintPlugin.so -checks=-*,capture-* FILE -- FLAGS
and reports the median over rounds of the per-round ratios lint/floor and
tidy/floor (targets: lint at most 1.15x the floor). Same flags for all three.

  bench/bench.py [--rounds N] [--build BUILD_DIR] [FILE...]
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_FILES = [
    "examples/decode_loop/src/decoder.cu",
    "examples/decode_loop/src/kv_cache.cu",
    "examples/decode_loop/src/sampler.cu",
    "tests/lit/real/cuda-runtime.cu",
    "tests/lit/real/libraries.cu",
]


def cuda_flags(cuda):
    flags = ["-x", "cuda", "--cuda-host-only", "--cuda-path=" + cuda,
             "-std=c++17", "-Wno-unknown-cuda-version",
             "-idirafter", os.path.join(ROOT, "tool", "compat"),
             "-I", os.path.join(ROOT, "examples", "decode_loop", "src")]
    cccl = os.path.join(cuda, "include", "cccl")
    if os.path.isdir(cccl):
        flags += ["-idirafter", cccl]
    return flags


def timed(cmd):
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    return elapsed, proc.returncode, proc.stderr.decode(errors="replace")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--cuda", default=os.environ.get("CUDA_HOME", "/usr/local/cuda"))
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()

    lint = os.path.join(args.build, "tool", "capture-lint", "capture-lint")
    plugin = os.path.join(args.build, "tool", "plugin", "libCaptureLintPlugin.so")
    files = [os.path.join(ROOT, f) for f in (args.files or DEFAULT_FILES)]
    flags = cuda_flags(args.cuda)
    for tool in (lint, plugin):
        if not os.path.exists(tool):
            sys.exit("bench: %s not built (run scripts/setup.sh)" % tool)

    commands = {
        "floor": lambda f: ["clang++-19", "-fsyntax-only"] + flags + [f],
        "lint": lambda f: [lint, "--quiet", f, "--"] + flags,
        "tidy": lambda f: ["clang-tidy-19", "-load=" + plugin,
                           "-checks=-*,capture-*", "--quiet", f, "--"] + flags,
    }
    ratios = {"lint": [], "tidy": []}
    totals = {k: [] for k in commands}
    # One warm-up round so page cache and dynamic loading are alike.
    for f in files:
        for name, cmd in commands.items():
            t, rc, err = timed(cmd(f))
            if name == "floor" and rc != 0:
                sys.exit("bench: %s does not parse:\n%s" % (f, err))
    for r in range(args.rounds):
        round_time = {k: 0.0 for k in commands}
        order = list(commands) if r % 2 == 0 else list(reversed(commands))
        for f in files:
            for name in order:
                t, _, _ = timed(commands[name](f))
                round_time[name] += t
        for k in commands:
            totals[k].append(round_time[k])
        ratios["lint"].append(round_time["lint"] / round_time["floor"])
        ratios["tidy"].append(round_time["tidy"] / round_time["floor"])

    print("files: %d, rounds: %d (alternating order)" % (len(files), args.rounds))
    for k in commands:
        print("  %-6s median %.3f s per round (all files)" % (k, statistics.median(totals[k])))
    print("capture-lint / clang++ -fsyntax-only: median ratio %.3fx (target <= 1.15x)"
          % statistics.median(ratios["lint"]))
    print("clang-tidy-19 -load plugin / clang++ -fsyntax-only: median ratio %.3fx"
          % statistics.median(ratios["tidy"]))
    print("capture-lint / clang-tidy-19 plugin: %.3fx"
          % (statistics.median(totals["lint"]) / statistics.median(totals["tidy"])))


if __name__ == "__main__":
    main()
