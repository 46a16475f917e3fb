#!/usr/bin/env python3
"""Builds examples/decode_loop with line info, runs it under capture-probe and
checks the report; the report is kept (OUT_DIR/decode_loop.probe.json) for
`capture-lint --confirm` (tests/lit/cli/confirm.test checks the verdicts on
a copy recorded on an H100).

usage: check_example.py CAPTURE_PROBE REPO_ROOT OUT_DIR"""
import json
import os
import subprocess
import sys

probe, root, out_dir = sys.argv[1:4]
example = os.path.join(root, "examples", "decode_loop")
build = os.path.join(out_dir, "decode_loop-build")
subprocess.run(["cmake", "-S", example, "-B", build, "-G", "Ninja",
                "-DCMAKE_BUILD_TYPE=RelWithDebInfo"], check=True,
               capture_output=True)
subprocess.run(["cmake", "--build", build], check=True, capture_output=True)
report = os.path.join(out_dir, "decode_loop.probe.json")
p = subprocess.run([probe, "run", "--report", report, "--",
                    os.path.join(build, "decode_loop")],
                   capture_output=True, text=True, timeout=120)
print(p.stderr)


def line_of(rel, text):
    for n, line in enumerate(open(os.path.join(example, "src", rel)), 1):
        if text in line:
            return n
    raise KeyError(text)


failures = []
r = json.load(open(report))
caps = r["captures"]
if len(caps) != 1:
    failures.append(f"{len(caps)} captures")
else:
    c = caps[0]
    calls = [k for k in c["calls"] if k["classes"]]

    def find(api_part, rel, text, classes):
        want = line_of(rel, text)
        for k in calls:
            s = k.get("site", {})
            if api_part in k["api"] and s.get("file", "").endswith(rel) and \
                    s.get("line") == want and set(classes) <= set(k["classes"]):
                return k
        failures.append(f"no {api_part} {classes} at {rel}:{want}; saw " +
                        "; ".join(f"{k['api']}{k['classes']}@{k.get('site', {}).get('line')}"
                                  for k in calls))

    find("LaunchKernel", "decoder.cu", "residual<<<", ["uncaptured-work"])
    find("cudaMemcpy", "decoder.cu", "CUDA_CHECK(cudaMemcpy(host, logits",
         ["uncaptured-work", "sync"])
    first = find("cudaDeviceSynchronize", "sampler.cu", "cudaDeviceSynchronize",
                 ["error", "sync"])
    if first and not first.get("first_error"):
        failures.append("cudaDeviceSynchronize is not the first error")
    if c["ended"] or c["stream_kind"] != "non-blocking":
        failures.append(f"ended={c['ended']} stream={c['stream_kind']}")
    if not r.get("note", "").startswith("killed by signal 6"):
        failures.append(f"note: {r.get('note')}")
for f in failures:
    print("FAIL:", f)
print(f"decode_loop example under the probe: {len(failures)} failures")
sys.exit(1 if failures else 0)
