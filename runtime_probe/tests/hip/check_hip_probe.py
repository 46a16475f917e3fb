#!/usr/bin/env python3
"""Runs each HIP scenario under `capture-probe run --backend hip` against the
simulated HIP runtime and checks the report: classes, first error, call
sites (the `// SITE: name` lines of HipScenarios.cpp), graph nodes.

usage: check_hip_probe.py CAPTURE_PROBE INTERPOSER_SO SCENARIOS_EXE
"""
import json
import os
import re
import subprocess
import sys
import tempfile

probe, interposer, scenarios = sys.argv[1:4]
source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "HipScenarios.cpp")
sites = {}
for number, line in enumerate(open(source), 1):
    m = re.search(r"// SITE: ([\w-]+)", line)
    if m:
        sites[m.group(1)] = number

failures = []


def run(name):
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        proc = subprocess.run(
            [probe, "run", "--backend", "hip", "--library", interposer,
             "--report", report, "--", scenarios, name],
            capture_output=True, text=True, timeout=60)
        with open(report) as f:
            return proc, json.load(f)


def problem_calls(capture):
    return [c for c in capture["calls"] if c["classes"]]


def check(cond, scenario, what):
    if not cond:
        failures.append(f"{scenario}: {what}")


def check_site(call, scenario, site):
    line = call.get("site", {}).get("line")
    check(line == sites[site], scenario,
          f"{call['api']} site line {line}, expected {sites[site]} ({site})")


def one_capture(report, scenario):
    check(len(report["captures"]) == 1, scenario,
          f"{len(report['captures'])} captures")
    return report["captures"][0]


# clean: two nodes, nothing to report.
proc, r = run("clean")
c = one_capture(r, "clean")
check(c["succeeded"] and c["graph_nodes"] == {"kernel": 1, "memcpy": 1},
      "clean", f"graph {c['graph_nodes']} succeeded={c['succeeded']}")
check(not problem_calls(c), "clean", "unexpected problem calls")
check(proc.returncode == 0 and r["classes"] == [], "clean", f"rc {proc.returncode}")

# malloc-global: 900 at the hipMalloc, the launch after it 901 (not first).
proc, r = run("malloc-global")
c = one_capture(r, "malloc-global")
calls = problem_calls(c)
check(calls[0]["api"] == "hipMalloc" and calls[0].get("first_error"),
      "malloc-global", "hipMalloc is not the first error")
check(calls[0]["result"] == 900 and calls[0]["expected"] == "illegal",
      "malloc-global", str(calls[0]))
check_site(calls[0], "malloc-global", "malloc-global")
check(calls[1]["classes"] == ["invalidated"] and not calls[1].get("first_error"),
      "malloc-global", f"follower {calls[1]['classes']}")
check(not c["succeeded"] and "capture-failed" in c["classes"], "malloc-global",
      "capture should have failed")

# malloc-relaxed: the thread switched to relaxed; the allocation ran eagerly.
proc, r = run("malloc-relaxed")
c = one_capture(r, "malloc-relaxed")
m = [k for k in c["calls"] if k["api"] == "hipMalloc"][0]
check(set(m["classes"]) == {"allocation", "eager"} and m["result"] == 0,
      "malloc-relaxed", str(m["classes"]))
check(m["effective_mode"] == "relaxed", "malloc-relaxed", m["effective_mode"])
check_site(m, "malloc-relaxed", "malloc-relaxed")
check(c["succeeded"], "malloc-relaxed", "capture should succeed")

# sync-memcpy: implicit (906) in thread-local mode.
proc, r = run("sync-memcpy")
c = one_capture(r, "sync-memcpy")
m = problem_calls(c)[0]
check(m["api"] == "hipMemcpy" and m["result"] == 906 and m.get("first_error"),
      "sync-memcpy", str(m))
check("sync" in m["classes"], "sync-memcpy", str(m["classes"]))
check_site(m, "sync-memcpy", "sync-memcpy")
check(c["mode"] == "thread_local", "sync-memcpy", c["mode"])

# legacy launch while a non-blocking stream captures: silent, uncaptured.
proc, r = run("legacy-launch-nonblocking")
c = one_capture(r, "legacy-launch-nonblocking")
m = problem_calls(c)
check(len(m) == 1 and m[0]["classes"] == ["uncaptured-work"] and m[0]["result"] == 0,
      "legacy-launch-nonblocking", str(m))
check(m and r["stacks"][m[0]["stack_ref"]]["stack"][1]["line"] ==
      sites["legacy-launch"],
      "legacy-launch-nonblocking", "caller frame of launch()")
check(c["succeeded"] and c["graph_nodes"] == {"kernel": 1} and
      c["stream_kind"] == "non-blocking", "legacy-launch-nonblocking", str(c["graph_nodes"]))

# stream-sync: 900 even in relaxed mode.
proc, r = run("stream-sync")
c = one_capture(r, "stream-sync")
m = problem_calls(c)[0]
check(m["api"] == "hipStreamSynchronize" and m["result"] == 900 and
      "sync" in m["classes"], "stream-sync", str(m))
check_site(m, "stream-sync", "stream-sync")

# captured-event-sync: hipErrorCapturedEvent (907).
proc, r = run("captured-event-sync")
c = one_capture(r, "captured-event-sync")
m = problem_calls(c)[0]
check(m["api"] == "hipEventSynchronize" and m["result"] == 907 and
      m["result_name"] == "hipErrorCapturedEvent", "captured-event-sync", str(m))
check_site(m, "captured-event-sync", "event-sync")

# other-thread-malloc: another thread's hipMalloc invalidates a global capture.
proc, r = run("other-thread-malloc")
c = one_capture(r, "other-thread-malloc")
m = problem_calls(c)[0]
check(m.get("other_thread") and m["result"] == 900 and m.get("first_error"),
      "other-thread-malloc", str(m))
check_site(m, "other-thread-malloc", "other-thread")

# never-ended: the program aborts inside the capture; the log survives.
proc, r = run("never-ended")
c = one_capture(r, "never-ended")
check(c["ended"] is False and "capture-failed" in c["classes"], "never-ended",
      "capture should be open")
check(r.get("note", "").startswith("killed by signal 6"), "never-ended",
      r.get("note", ""))
check(proc.returncode == 134, "never-ended", f"rc {proc.returncode}")
check_site(problem_calls(c)[0], "never-ended", "never-ended")

for f in failures:
    print("FAIL:", f)
print(f"hip interposer on the simulated runtime: 9 scenarios, {len(failures)} failures")
sys.exit(1 if failures else 0)
