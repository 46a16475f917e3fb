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
if len(caps) != 4:
    failures.append(f"expected 4 captures, got {len(caps)}")
else:
    item, empty, clean, fallback = caps
    # The same kernels run eagerly from other Python lines: the fallback.
    fb_line = next(n for n, t in enumerate(open(os.path.join(here, "torch_capture.py")), 1)
                   if "# FALLBACK" in t)
    fb_site = (fallback.get("fallback") or {}).get("site", {})
    if "silent-fallback" not in fallback["classes"] or fb_site.get("line") != fb_line:
        failures.append(f"fallback: classes {fallback['classes']}, fallback at "
                        f"{fb_site.get('file')}:{fb_site.get('line')}, expected line {fb_line}")
    else:
        print("fallback: silent-fallback at torch_capture.py:%d" % fb_line)
    first = [c for c in item["calls"] if c.get("first_error")]
    if item["succeeded"] or not first:
        failures.append(f"item: succeeded={item['succeeded']} first error {first}")
    elif first[0]["result"] != 900 or "sync" not in first[0]["classes"]:
        failures.append(f"item: first error {first[0]['api']} {first[0]['result']} {first[0]['classes']}")
    else:
        print("item: first error", first[0]["api"], first[0]["result"],
              first[0].get("result_name"), "at", first[0].get("site", {}).get("function"))
    # Python call sites: the .item() line of torch_capture.py.
    py_site = first[0].get("site", {}) if first else {}
    item_line = next(n for n, t in enumerate(open(os.path.join(here, "torch_capture.py")), 1)
                     if "# ITEM" in t)
    if not (py_site.get("file", "").endswith("torch_capture.py") and py_site.get("line") == item_line):
        failures.append(f"item: site {py_site.get('file')}:{py_site.get('line')}, expected torch_capture.py:{item_line}")
    # torch.empty in a region: the caching allocator switches the thread to
    # relaxed mode and grows the graph's private pool with cudaMalloc. That
    # is legal: pool growth, not a user allocation, and no class at all.
    pool = [c for c in empty["calls"] if c.get("pool_growth")]
    noisy = [c for c in empty["calls"] if c["classes"]]
    if not empty["succeeded"] or not pool or noisy or empty["classes"]:
        failures.append(f"empty: succeeded={empty['succeeded']} pool growth={len(pool)} "
                        f"flagged={[(c['api'], c['classes']) for c in noisy]} classes={empty['classes']}")
    else:
        print("empty:", ", ".join(sorted({c['api'] for c in pool})), "growing the pool:",
              len(pool), "calls, no class")
    noisy = [c for c in clean["calls"] if c["classes"]]
    if not clean["succeeded"] or noisy or clean["classes"]:
        failures.append(f"clean: succeeded={clean['succeeded']} {[(c['api'], c['classes']) for c in noisy]} {clean['classes']}")
    else:
        print("clean: nodes", clean["graph_nodes"])

# Correct PyTorch programs: --fail-on any stays green.
report2 = os.path.join(out_dir, "torch_correct.json")
p = subprocess.run([probe, "run", "--fail-on", "any", "--report", report2, "--",
                    sys.executable, os.path.join(here, "torch_correct.py")],
                   capture_output=True, text=True, timeout=600)
print(p.stdout[-2000:])
print(p.stderr[-6000:])
if p.returncode != 0:
    failures.append(f"correct PyTorch under --fail-on any: exit {p.returncode}")
r2 = json.load(open(report2))
print(f"correct PyTorch: {len(r2['captures'])} capture records "
      f"({sum(c.get('repeats', 1) for c in r2['captures'])} captures), classes {r2['classes']}, "
      f"coverage {r2.get('graph_coverage')}")
# torch.compile: the graph trees' captures begin in Inductor's generated
# module; the probe maps the site back to the compiled function's line.
compiled_line = next(n for n, t in enumerate(open(os.path.join(here, "torch_correct.py")), 1)
                     if "# COMPILED" in t)
compiled = [c for c in r2["captures"]
            if (c["begin"].get("site") or {}).get("module") == "inductor"]
sites = {((c["begin"]["site"].get("file") or "").rsplit("/", 1)[-1],
          c["begin"]["site"].get("line"), c["begin"]["site"].get("raw"))
         for c in compiled}
print("torch.compile captures begun at:", sorted(map(str, sites)))
if not compiled or any(s[:2] != ("torch_correct.py", compiled_line) for s in sites):
    failures.append(f"torch.compile: capture sites {sites}, expected "
                    f"torch_correct.py:{compiled_line}")
for f in failures:
    print("FAIL:", f)
print(f"PyTorch regions: {len(failures)} failures")
sys.exit(1 if failures else 0)
