#!/usr/bin/env python3
"""Overhead of the injected probe: each workload of probe-bench run plain,
under `capture-probe run`, and under compute-sanitizer (the reference
point), in alternating order, ROUNDS times (default 7); medians of the
workload's own time (CUDA events) and of the whole process's wall time.
Every run is pinned to the same CPU core (taskset, where present): the
capture workload is host-bound, and a run moved between cores, or sharing
one with a neighbour, varies more than the probe costs.

usage: bench_probe.py CAPTURE_PROBE PROBE_BENCH OUT_DIR [ROUNDS]"""
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

probe, bench, out_dir = sys.argv[1:4]
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 7
sanitizer = shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer"
workloads = [("replay", 20000), ("capture", 1000)]
report = os.path.join(out_dir, "bench-report.json")
pin = ["taskset", "-c", str(max(os.sched_getaffinity(0)))] \
    if shutil.which("taskset") else []
runners = {
    "plain": lambda w: [bench, w[0], str(w[1])],
    "probe": lambda w: [probe, "run", "--quiet", "--no-symbolize", "--report",
                        report, "--", bench, w[0], str(w[1])],
    "compute-sanitizer": lambda w: [sanitizer, "--print-limit", "1", bench,
                                    w[0], str(w[1] // 10)],
}
lines = []
for w in workloads:
    times = {k: [] for k in runners}
    walls = {k: [] for k in runners}
    for r in range(rounds):
        order = list(runners) if r % 2 == 0 else list(reversed(runners))
        for k in order:
            if k == "compute-sanitizer" and not os.path.exists(sanitizer):
                continue
            t = time.perf_counter()
            p = subprocess.run(pin + runners[k](w), capture_output=True,
                               text=True, timeout=600)
            wall = time.perf_counter() - t
            m = re.search(r"([\d.]+) ms", p.stdout)
            if p.returncode != 0 or not m:
                print(f"{w[0]} {k}: failed rc={p.returncode}: {p.stdout} {p.stderr[-500:]}")
                continue
            ms = float(m.group(1))
            if k == "compute-sanitizer":
                ms *= 10  # it ran a tenth of the iterations
            times[k].append(ms)
            walls[k].append(wall)
    med = {k: statistics.median(v) for k, v in times.items() if v}
    wmed = {k: statistics.median(v) for k, v in walls.items() if v}
    for k in med:
        lines.append(f"{w[0]:<8} {w[1]:>6}x {k:<18} workload median {med[k]:10.2f} ms"
                     f"   process wall median {wmed[k]:7.2f} s   ({len(times[k])} runs)")
    if "plain" in med and "probe" in med:
        lines.append(f"{w[0]:<8} probe / plain (workload): {med['probe'] / med['plain']:.3f}x"
                     f"   (process wall: {wmed['probe'] / wmed['plain']:.3f}x)")
    if "plain" in med and "compute-sanitizer" in med:
        lines.append(f"{w[0]:<8} compute-sanitizer / plain (workload, scaled from N/10): "
                     f"{med['compute-sanitizer'] / med['plain']:.3f}x")
lines.append(f"(each run pinned to CPU {pin[-1]})" if pin else "(runs not pinned: no taskset)")
print("\n".join(lines))
with open(os.path.join(out_dir, "bench.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")
