#!/usr/bin/env python3
"""Kernels the probe sees in correct PyTorch, with CUPTI and without it.

The probe without CUPTI (capture-probe run's default) sees launches
through the driver entry points it redirected; a launch through a copy its
scan did not find is missing from the report. This compares what the two
modes count for torch_correct.py, fairly: one plain run first (Inductor
compiles and autotunes once, then reads its cache), then the two modes in
alternating rounds. Exit 1 if any round of either mode fails --fail-on any,
or if the modes' counts of kernels in graphs differ.

usage: torch_modes.py CAPTURE_PROBE OUT_DIR [ROUNDS]
"""
import json
import os
import subprocess
import sys

probe, out_dir = sys.argv[1], sys.argv[2]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 2
here = os.path.dirname(os.path.abspath(__file__))
program = [sys.executable, os.path.join(here, "torch_correct.py")]
env = {k: v for k, v in os.environ.items() if k != "CAPTURE_PROBE_CALLS"}

warm = subprocess.run(program, capture_output=True, text=True, timeout=600, env=env)
print(f"plain warm-up run: exit {warm.returncode}")
if warm.returncode != 0:
    print(warm.stderr[-3000:])
    sys.exit(1)

MODES = {"cupti": ["--with-cupti"], "without-cupti": ["--without-cupti"]}
counts = {m: [] for m in MODES}
failed = False
for r in range(rounds):
    for mode, flags in MODES.items():
        report = os.path.join(out_dir, f"torch_modes_{mode}_{r}.json")
        p = subprocess.run([probe, "run", *flags, "--fail-on", "any", "--report", report,
                            "--", *program],
                           capture_output=True, text=True, timeout=600, env=env)
        if p.returncode != 0:
            failed = True
            print(f"round {r} {mode}: exit {p.returncode}\n{p.stderr[-3000:]}")
            continue
        g = json.load(open(report)).get("graph_coverage") or {}
        row = (g.get("graph_launches"), g.get("kernels_in_graphs"),
               g.get("kernels_outside_graphs"))
        counts[mode].append(row)
        print(f"round {r} {mode:14s} graph launches {row[0]}, kernels in graphs {row[1]}, "
              f"kernels outside graphs {row[2]}")
for mode, rows in counts.items():
    print(f"{mode}: {sorted(set(rows))}")
in_graphs = {row[1] for rows in counts.values() for row in rows}
if len(in_graphs) > 1:
    print(f"FAIL: kernels in graphs differ between rounds or modes: {sorted(in_graphs)}")
    failed = True
sys.exit(1 if failed else 0)
