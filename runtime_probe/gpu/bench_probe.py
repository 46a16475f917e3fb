#!/usr/bin/env python3
"""Overhead of the injected probe: each workload of probe-bench run plain,
under `capture-probe run` (--with-cupti, and --without-cupti), and under
compute-sanitizer (the reference point), in alternating order, ROUNDS times
(default 7); medians of the
workload's own time (CUDA events), of the CPU time of its thread (the
capture workload is host-bound: a run preempted on a shared machine is not
charged for the wait) and of the whole process's wall time, and the median
of each round's ratio to the plain run of the same round.
Every run is pinned to the same CPU core (taskset, where present): the
capture workload is host-bound, and a run moved between cores, or sharing
one with a neighbour, varies more than the probe costs.

With --baseline OTHER_CAPTURE_PROBE, another build of the probe (say, the
last commit's) runs in the same rounds, so that a change is measured side
by side on one machine: these machines are too noisy to compare runs made
apart.

usage: bench_probe.py CAPTURE_PROBE PROBE_BENCH OUT_DIR [ROUNDS]
                      [--baseline OTHER_CAPTURE_PROBE]"""
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

args = sys.argv[1:]
baseline = None
if "--baseline" in args:
    i = args.index("--baseline")
    if i + 1 >= len(args):
        sys.exit("bench_probe.py: --baseline needs a capture-probe path")
    baseline = args[i + 1]
    del args[i:i + 2]
if len(args) not in (3, 4):
    sys.exit(__doc__)
probe, bench, out_dir = args[:3]
rounds = int(args[3]) if len(args) > 3 else 7
sanitizer = shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer"
workloads = [("replay", 20000), ("capture", 1000)]
report = os.path.join(out_dir, "bench-report.json")
pin = ["taskset", "-c", str(max(os.sched_getaffinity(0)))] \
    if shutil.which("taskset") else []
runners = {
    "plain": lambda w: [bench, w[0], str(w[1])],
    "probe": lambda w: [probe, "run", "--quiet", "--no-symbolize",
                        "--with-cupti", "--report", report, "--", bench, w[0],
                        str(w[1])],
    "probe-without-cupti": lambda w: [probe, "run", "--quiet", "--no-symbolize",
                                      "--without-cupti", "--report", report,
                                      "--", bench, w[0], str(w[1])],
    "compute-sanitizer": lambda w: [sanitizer, "--print-limit", "1", bench,
                                    w[0], str(w[1] // 10)],
}
if baseline:
    # With CUPTI, as this probe's "probe" runner: through the environment,
    # which older versions pass on to the program too.
    runners["probe-baseline"] = lambda w: [
        "env", "CAPTURE_PROBE_CALLS=cupti", baseline, "run", "--quiet",
        "--no-symbolize", "--report", report, "--", bench, w[0], str(w[1])]
def measure(w):
    """Runs every runner ROUNDS times on workload w, alternating the order;
    returns {runner: {"workload": [...], "cpu": [...], "wall": [...]}}."""
    got = {k: {"workload": [], "cpu": [], "wall": [], "round": []}
           for k in runners}
    for r in range(rounds):
        order = list(runners) if r % 2 == 0 else list(reversed(runners))
        for k in order:
            if k == "compute-sanitizer" and not os.path.exists(sanitizer):
                continue
            t = time.perf_counter()
            p = subprocess.run(pin + runners[k](w), capture_output=True,
                               text=True, timeout=600)
            wall = time.perf_counter() - t
            m = re.search(r"([\d.]+) ms, cpu ([\d.]+) ms", p.stdout)
            if p.returncode != 0 or not m:
                print(f"{w[0]} {k}: failed rc={p.returncode}: {p.stdout} {p.stderr[-500:]}")
                continue
            scale = 10 if k == "compute-sanitizer" else 1  # ran N/10
            got[k]["workload"].append(float(m.group(1)) * scale)
            got[k]["cpu"].append(float(m.group(2)) * scale)
            got[k]["wall"].append(wall)
            got[k]["round"].append(r)
    return got


def paired(got, k):
    """The workload's time over plain's in the same round: the median and
    quartiles of those ratios (a round's neighbours share the machine's
    state of the moment, which drifts more than the probe costs)."""
    plain = dict(zip(got["plain"]["round"], got["plain"]["workload"]))
    ratios = sorted(v / plain[r] for r, v in zip(got[k]["round"], got[k]["workload"])
                    if r in plain)
    if len(ratios) < 4:
        return ""
    q = statistics.quantiles(ratios, n=4)
    return (f"   paired rounds: median {statistics.median(ratios):.3f}x"
            f" (quartiles {q[0]:.3f}-{q[2]:.3f}, {len(ratios)} rounds)")


def ratio_line(w, name, got, k):
    med = {m: statistics.median(v) for m, v in got[k].items() if m != "round"}
    base = {m: statistics.median(v) for m, v in got["plain"].items() if m != "round"}
    scaled = " (scaled from N/10)" if k == "compute-sanitizer" else ""
    return (f"{w[0]:<8} {name} / plain{scaled}: workload {med['workload'] / base['workload']:.3f}x"
            f"   thread CPU {med['cpu'] / base['cpu']:.3f}x"
            f"   process wall {med['wall'] / base['wall']:.3f}x" + paired(got, k))


lines = []
for w in workloads:
    got = {k: v for k, v in measure(w).items() if v["workload"]}
    for k, v in got.items():
        lines.append(f"{w[0]:<8} {w[1]:>6}x {k:<18} medians: workload "
                     f"{statistics.median(v['workload']):9.2f} ms, thread CPU "
                     f"{statistics.median(v['cpu']):9.2f} ms, process wall "
                     f"{statistics.median(v['wall']):6.2f} s   ({len(v['wall'])} runs)")
    if "plain" not in got:
        continue
    for k, name in (("probe", "probe --with-cupti"),
                    ("probe-without-cupti", "probe --without-cupti"),
                    ("probe-baseline", "baseline probe"),
                    ("compute-sanitizer", "compute-sanitizer")):
        if k in got:
            lines.append(ratio_line(w, name, got, k))
lines.append(f"(each run pinned to CPU {pin[-1]})" if pin else "(runs not pinned: no taskset)")
print("\n".join(lines))
with open(os.path.join(out_dir, "bench.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")
