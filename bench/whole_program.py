#!/usr/bin/env python3
"""Whole-program analysis over a generated compile database: first run
against a re-run after touching one file, side by side.

Generates N translation units (default 240) that include the real CUDA
runtime header (or the test mocks with --mock). Every TU defines a few
functions that call functions of the next TUs, a few of which synchronize or
allocate; every eighth TU holds a capture region whose hazards sit in other
files, two or three calls down. Then, for R rounds (default 3):
  first:  capture-lint -p DB with an empty cache (every TU parsed)
  rerun:  one TU touched (its content changes), capture-lint -p DB again
and reports the medians and the ratio first/rerun (target: at least 5x).
Both runs must report the same cross-TU findings; the script checks that.

  bench/whole_program.py [--tus N] [--rounds R] [--jobs J] [--mock]
                         [--build BUILD_DIR] [--keep DIR]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def generate(out, n, flags):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "api.h"), "w") as f:
        f.write("#pragma once\n#include <cuda_runtime.h>\n")
        for i in range(n):
            f.write(f"void stage_{i}(cudaStream_t s, float *p, int depth);\n")
    db = []
    for i in range(n):
        nxt = [(i + k) % n for k in (1, 7)]
        body = [f'#include "api.h"', "",
                f"__global__ void kernel_{i}(float *p);", ""]
        hazard = ""
        if i % 13 == 5:
            hazard = "  cudaStreamSynchronize(s);\n"
        elif i % 17 == 3:
            hazard = "  cudaMalloc(&p, 64);\n"
        body.append(f"void stage_{i}(cudaStream_t s, float *p, int depth) {{")
        body.append(f"  kernel_{i}<<<1, 32, 0, s>>>(p);")
        body.append(hazard.rstrip("\n") if hazard else "  // no hazard")
        body.append("  if (depth > 0) {")
        for j in nxt:
            body.append(f"    stage_{j}(s, p, depth - 1);")
        body.append("  }")
        body.append("}")
        if i % 8 == 0:
            body += ["", f"void capture_{i}(cudaStream_t s, float *p) {{",
                     "  cudaGraph_t g;",
                     "  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);",
                     f"  stage_{(i + 1) % n}(s, p, 2);",
                     "  cudaStreamEndCapture(s, &g);", "}"]
        name = f"tu_{i:04d}.cu"
        with open(os.path.join(out, name), "w") as f:
            f.write("\n".join(body) + "\n")
        db.append({"directory": out, "file": name,
                   "arguments": ["clang++"] + flags + ["-c", name]})
    with open(os.path.join(out, "compile_commands.json"), "w") as f:
        json.dump(db, f, indent=1)


def run(lint, db, jobs):
    start = time.monotonic()
    p = subprocess.run([lint, "-p", db, "-j", str(jobs), "--format=json",
                        "--report-only"], capture_output=True, text=True)
    took = time.monotonic() - start
    if p.returncode != 0:
        sys.exit("capture-lint failed (%d): %s" % (p.returncode, p.stderr))
    report = json.loads(p.stdout)
    findings = sorted((f["file"], f["line"],
                       f["message"]) for f in report["findings"])
    return took, findings, p.stderr.strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tus", type=int, default=240)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--mock", action="store_true",
                    help="use the test mocks instead of /usr/local/cuda")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--keep", help="generate into DIR and keep it")
    args = ap.parse_args()
    if args.tus < 2:
        sys.exit("--tus must be at least 2")
    lint = os.path.join(args.build, "tool", "capture-lint", "capture-lint")
    if not os.access(lint, os.X_OK):
        sys.exit("no capture-lint at %s (build first)" % lint)
    if args.mock or not os.path.exists("/usr/local/cuda/include/cuda_runtime.h"):
        flags = ["-x", "cuda", "-nocudainc", "-nocudalib",
                 "--cuda-gpu-arch=sm_70", "-std=c++17", "-isystem",
                 os.path.join(ROOT, "tests", "Inputs", "mock", "cuda")]
        headers = "mock headers"
    else:
        flags = ["-x", "cuda", "--cuda-path=/usr/local/cuda",
                 "--cuda-gpu-arch=sm_80", "-std=c++17"]
        headers = "CUDA headers in /usr/local/cuda"
    out = args.keep or tempfile.mkdtemp(prefix="capture-lint-wp-")
    generate(out, args.tus, flags)
    cache = os.path.join(out, ".capture-lint-cache")
    touched = os.path.join(out, "tu_0001.cu")
    firsts, reruns = [], []
    for r in range(args.rounds):
        shutil.rmtree(cache, ignore_errors=True)
        t1, f1, s1 = run(lint, out, args.jobs)
        with open(touched, "a") as f:
            f.write(f"// touched in round {r}\n")
        t2, f2, s2 = run(lint, out, args.jobs)
        if f1 != f2:
            sys.exit("the re-run's findings differ from the first run's")
        firsts.append(t1)
        reruns.append(t2)
        print(f"round {r + 1}: first {t1:.2f} s ({s1}); "
              f"re-run {t2:.2f} s ({s2})")
    cross = sum(1 for f in f1 if "reaches" in f[2])
    first, rerun = statistics.median(firsts), statistics.median(reruns)
    print(f"\n{args.tus} TUs ({headers}), -j {args.jobs}, {len(f1)} findings "
          f"({cross} through calls), {args.rounds} rounds")
    print(f"first run (empty cache)      median {first:.2f} s")
    print(f"re-run (one TU touched)      median {rerun:.2f} s")
    print(f"first / re-run               {first / rerun:.1f}x  (target >= 5x)")
    if not args.keep:
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
