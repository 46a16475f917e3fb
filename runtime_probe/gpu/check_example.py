#!/usr/bin/env python3
"""Builds examples/decode_loop with line info, runs it under capture-probe and
checks the report; the report is kept (OUT_DIR/decode_loop.probe.json) for
`capture-lint --confirm` (tests/lit/cli/confirm-example.test checks the
verdicts on a copy of the one this probe version wrote,
tests/lit/cli/Inputs/confirm/decode_loop.<version>.json).

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
    # The first capture begun here keeps the stacks of its clean work: the
    # cache append's copies show the capture went past `cache.reserve`
    # (what `capture-lint --confirm` says of the cudaMalloc behind it).
    append = line_of("decoder.cu", "cache.append(")
    step = line_of("decoder.cu", "  step();")
    def stack(k):
        """A call's native stack: a row of the report's table."""
        return r["stacks"][k["stack_ref"]]["stack"] if "stack_ref" in k else []

    if not any(k["classes"] == [] and len(stack(k)) > 2 and
               stack(k)[1].get("file", "").endswith("decoder.cu") and
               stack(k)[1].get("line") == append and
               stack(k)[2].get("line") == step for k in c["calls"]):
        failures.append("no clean call with a stack through decoder.cu:%d "
                        "from decoder.cu:%d" % (append, step))
    if c["ended"] or c["stream_kind"] != "non-blocking":
        failures.append(f"ended={c['ended']} stream={c['stream_kind']}")
    if not r.get("note", "").startswith("killed by signal 6"):
        failures.append(f"note: {r.get('note')}")
for f in failures:
    print("FAIL:", f)
print(f"decode_loop example under the probe: {len(failures)} failures")
sys.exit(1 if failures else 0)
