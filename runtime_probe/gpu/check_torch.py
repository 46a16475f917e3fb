#!/usr/bin/env python3
"""Runs torch_capture.py under capture-probe and checks the report.
usage: check_torch.py CAPTURE_PROBE OUT_DIR"""
import json
import os
import subprocess
import sys

probe, out_dir = sys.argv[1:3]
here = os.path.dirname(os.path.abspath(__file__))
report = os.path.join(out_dir, "torch.json")
p = subprocess.run([probe, "run", "--report", report, "--", sys.executable,
                    os.path.join(here, "torch_capture.py")],
                   capture_output=True, text=True, timeout=300)
print(p.stdout)
print(p.stderr[-3000:])
failures = []
if p.returncode != 0:
    failures.append(f"exit {p.returncode}")
r = json.load(open(report))
caps = r["captures"]
print(f"{len(caps)} captures")
if len(caps) != 3:
    failures.append(f"expected 3 captures, got {len(caps)}")
else:
    item, empty, clean = caps
    first = [c for c in item["calls"] if c.get("first_error")]
    if item["succeeded"] or not first:
        failures.append(f"item: succeeded={item['succeeded']} first error {first}")
    elif first[0]["result"] != 900 or "sync" not in first[0]["classes"]:
        failures.append(f"item: first error {first[0]['api']} {first[0]['result']} {first[0]['classes']}")
    else:
        print("item: first error", first[0]["api"], first[0]["result"],
              first[0].get("result_name"), "at", first[0].get("site", {}).get("function"))
    allocs = [c for c in empty["calls"] if "allocation" in c["classes"]]
    modes = [c for c in empty["calls"] if "ExchangeStreamCaptureMode" in c["api"]]
    if not empty["succeeded"] or not allocs or not modes:
        failures.append(f"empty: succeeded={empty['succeeded']} allocations={len(allocs)} mode switches={len(modes)}")
    elif not all(c["effective_mode"] == "relaxed" and "eager" in c["classes"] for c in allocs):
        failures.append(f"empty: allocations not relaxed/eager: {allocs[0]}")
    else:
        print("empty:", ", ".join(sorted({c['api'] for c in allocs})), "in relaxed mode,",
              len(modes), "mode switches")
    # The graph's private memory pool: PyTorch's caching allocator switches
    # the thread to relaxed mode and calls cudaMalloc in every region that
    # needs pool memory. That is legal; anything else is not clean.
    noisy = [c for c in clean["calls"] if c["classes"] and not (
        set(c["classes"]) == {"allocation", "eager"} and c["effective_mode"] == "relaxed")]
    if not clean["succeeded"] or noisy:
        failures.append(f"clean: succeeded={clean['succeeded']} {[(c['api'], c['classes']) for c in noisy]}")
    else:
        print("clean: nodes", clean["graph_nodes"])
for f in failures:
    print("FAIL:", f)
print(f"PyTorch regions: {len(failures)} failures")
sys.exit(1 if failures else 0)
