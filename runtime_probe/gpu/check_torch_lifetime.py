#!/usr/bin/env python3
"""Replays of dead tensors under PyTorch's caching allocator, seen by the
probe (its Python hook, capture_probe_python/capture_probe_torch.py).

Runs torch_lifetime.py plain (the hazards are real on this machine: it
exits 1 otherwise), then under capture-probe, and checks the report: the
dropped and rebound graphs are freed-while-held, with the capture's line,
the line where the tensor's last reference went, the replay's line and the
node that reads it; the kept graph, the look-alike, is not. Then
torch_correct.py (torch.cuda.graph, make_graphed_callables, torch.compile
reduce-overhead) under --fail-on any with the hook saying what it watched:
it watched storages, and nothing is reported.
usage: check_torch_lifetime.py CAPTURE_PROBE OUT_DIR"""
import json
import os
import subprocess
import sys

probe, out_dir = sys.argv[1:3]
here = os.path.dirname(os.path.abspath(__file__))
script = os.path.join(here, "torch_lifetime.py")
lines = {}
for n, text in enumerate(open(script), 1):
    for mark in ("CAPTURE-DROPPED", "CAPTURE-KEPT", "CAPTURE-REBOUND",
                 "FREE-DROPPED", "REBOUND:", "REPLAY-REBOUND", "REPLAY"):
        if "# " + mark in text:
            lines[mark.rstrip(":")] = n
            break
failures = []

p = subprocess.run([sys.executable, script], capture_output=True, text=True,
                   timeout=300)
print(p.stdout, p.stderr[-2000:])
if p.returncode != 0:
    failures.append(f"plain run: exit {p.returncode} (the hazards are not real here)")

report = os.path.join(out_dir, "torch_lifetime.json")
p = subprocess.run([probe, "run", "--report", report, "--", sys.executable,
                    script], capture_output=True, text=True, timeout=300)
print(p.stdout, p.stderr[-6000:])
r = json.load(open(report))


def line_of(call):
    site = (call or {}).get("site") or {}
    return site.get("line") if site.get("file", "").endswith(
        "torch_lifetime.py") else None


by_begin = {line_of(c["begin"]): c for c in r["captures"]}
for name, begin, free, launch in (
        ("dropped", "CAPTURE-DROPPED", "FREE-DROPPED", "REPLAY"),
        ("rebound", "CAPTURE-REBOUND", "REBOUND", "REPLAY-REBOUND")):
    c = by_begin.get(lines[begin])
    if c is None:
        failures.append(f"{name}: no capture begun at line {lines[begin]}")
        continue
    sf, sl = c.get("stale_free"), c.get("stale_launch")
    got = (line_of(sf), line_of(sl))
    want = (lines[free], lines[launch])
    node = (sf or {}).get("node", "")
    if "freed-while-held" not in c["classes"] or got != want or \
            (sf or {}).get("api") != "caching-allocator free" or \
            not node.startswith("kernel node"):
        failures.append(f"{name}: classes {c['classes']}, free/launch at "
                        f"lines {got}, expected {want}, free {sf and sf.get('api')} "
                        f"node '{node}'")
    else:
        print(f"{name}: freed-while-held, captured at torch_lifetime.py:"
              f"{lines[begin]}, freed at line {got[0]}, replayed at line "
              f"{got[1]}, {node}")
kept = by_begin.get(lines["CAPTURE-KEPT"])
if kept is None or "freed-while-held" in kept["classes"]:
    failures.append(f"kept: {kept and kept['classes']}")
else:
    print("kept: no finding")

# The correct look-alikes, silent; the hook says what it watched.
report2 = os.path.join(out_dir, "torch_correct_lifetime.json")
env = dict(os.environ, CAPTURE_PROBE_TORCH_DEBUG="1")
p = subprocess.run([probe, "run", "--fail-on", "any", "--report", report2,
                    "--", sys.executable, os.path.join(here, "torch_correct.py")],
                   capture_output=True, text=True, timeout=600, env=env)
hook = [l for l in p.stderr.splitlines() if "capture-probe: torch hook:" in l]
watched = [l for l in hook if "watching" in l]
print("\n".join(hook))
print(p.stderr[-3000:] if p.returncode else "")
if p.returncode != 0:
    failures.append(f"torch_correct.py under --fail-on any: exit {p.returncode}")
if not watched:
    failures.append("torch_correct.py: the hook watched no storage")
for f in failures:
    print("FAIL:", f)
print(f"PyTorch lifetime: {len(failures)} failures")
sys.exit(1 if failures else 0)
