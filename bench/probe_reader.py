#!/usr/bin/env python3
"""Memory and time of capture-probe's event-log reader on large logs, a
candidate binary against a baseline binary, side by side (issue 24, item 12).

`capture-probe run -- PROGRAM` reads the event logs PROGRAM's process left
in its log directory and writes the report. Here PROGRAM is this script
itself (--write-log), which writes a synthetic log where the probe's
injection library would (the CAPTURE_PROBE_LOG path): no GPU needed. Two
mixes of events:
  eager     a few captures (100 calls each, a launch each), every other
            event a kernel launch or async copy outside any capture, the
            bulk of what a long training or serving run logs
  captures  a capture of 50 calls every 52 events (re-capturing each step)
  long-captures  a capture of 500 calls every 502 events: with memory per
            capture, not per call, a tenth of the captures' memory
  one-capture  one capture of every event but two, the same launch from a
            loop (issue 24's reproducer): a repeated call is kept once
For each size and mix, both binaries run in turn (best of --repeat), and the
peak resident memory (of capture-probe and the writer, which stays small) and
wall time are printed with the ratio candidate/baseline.

  bench/probe_reader.py CANDIDATE [--baseline OLD] [--events 1000000,...]
                        [--mix eager,captures,long-captures,one-capture] [--repeat 1]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.abspath(__file__)
MIXES = ("eager", "captures", "long-captures", "one-capture")


def call_line(seq, api, stream, frames=None, extra=None):
    e = {"seq": seq, "thread": 7, "kind": "call", "api": api, "result": 0,
         "stream": stream}
    if frames:
        e["frames"] = frames
    if extra:
        e.update(extra)
    return json.dumps(e, separators=(",", ":"))


def write_log(path, events, mix):
    """The synthetic log: `events` lines of the given mix."""
    stream = 0x7f0000001000
    frames = ["libapp.so+0x%x" % (0x1000 + i) for i in range(12)]
    seq = 0
    with open(path, "w", buffering=1 << 20) as f:
        def put(line):
            f.write(line)
            f.write("\n")

        def capture(calls):
            nonlocal seq
            put(json.dumps({"seq": seq, "thread": 7, "kind": "begin",
                            "api": "cudaStreamBeginCapture", "result": 0,
                            "stream": stream, "mode": "global",
                            "non_blocking": True, "frames": frames},
                           separators=(",", ":")))
            seq += 1
            for _ in range(calls):
                put(call_line(seq, "cudaLaunchKernel", stream,
                              extra={"nodes_created": 1, "kernel": 4096}))
                seq += 1
            put(json.dumps({"seq": seq, "thread": 7, "kind": "end",
                            "api": "cudaStreamEndCapture", "result": 0,
                            "stream": stream, "graph_returned": True,
                            "graph": 0x5000, "graph_nodes": {"kernel": calls}},
                           separators=(",", ":")))
            seq += 1

        if mix == "one-capture":
            capture(events - 2)
        elif mix in ("captures", "long-captures"):
            calls = 50 if mix == "captures" else 500
            while seq + calls + 2 <= events:
                capture(calls)
        else:
            for _ in range(min(10, events // 1000)):
                capture(100)
        while seq < events:
            api = "cudaLaunchKernel" if seq % 3 else "cudaMemcpyAsync"
            put(call_line(seq, api, stream, frames=frames[:4],
                          extra={"kernel": 4096} if seq % 3 else None))
            seq += 1


def run_probe(probe, events, mix, tmp):
    report = os.path.join(tmp, "report.json")
    cmd = [probe, "run", "--quiet", "--report", report, "--", sys.executable,
           HERE, "--write-log", str(events), "--mix", mix]
    # Peak RSS of the probe (and its program), measured in a wrapper
    # process so each run is counted on its own.
    start = time.monotonic()
    proc = subprocess.run(
        ["/usr/bin/env", "python3", "-c",
         "import resource,subprocess,sys;"
         "r=subprocess.run(sys.argv[1:]).returncode;"
         "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss);"
         "sys.exit(r)"] + cmd,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    took = time.monotonic() - start
    if proc.returncode != 0:
        sys.exit("%s failed (%d): %s" % (" ".join(cmd), proc.returncode,
                                         proc.stderr.decode()[-800:]))
    peak_kb = int(proc.stdout.decode().split()[-1])
    with open(report) as f:
        captures = len(json.load(f).get("captures", []))
    return peak_kb / 1024.0, took, captures


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("candidate", nargs="?")
    ap.add_argument("--baseline")
    ap.add_argument("--events", default="1000000,10000000")
    ap.add_argument("--mix", default="eager,captures")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--write-log", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.write_log is not None:
        target = os.environ["CAPTURE_PROBE_LOG"].replace("%p",
                                                         str(os.getpid()))
        write_log(target, args.write_log, args.mix)
        return 0
    if not args.candidate:
        ap.error("the candidate capture-probe binary is required")
    for mix in args.mix.split(","):
        if mix not in MIXES:
            ap.error("unknown --mix %r (one of %s)" % (mix, ", ".join(MIXES)))
    binaries = [("candidate", args.candidate)]
    if args.baseline:
        binaries.insert(0, ("baseline", args.baseline))
    print("%-13s %-9s %10s %10s %9s %9s" % ("mix", "binary", "events",
                                          "peak MiB", "seconds", "captures"))
    for mix in args.mix.split(","):
        for events in [int(x) for x in args.events.split(",")]:
            got = {}
            for name, probe in binaries:
                best = None
                for _ in range(args.repeat):
                    with tempfile.TemporaryDirectory() as tmp:
                        r = run_probe(probe, events, mix, tmp)
                    best = r if best is None or r[0] < best[0] else best
                got[name] = best
                print("%-13s %-9s %10d %10.0f %9.1f %9d" %
                      ((mix, name, events) + best))
            if "baseline" in got:
                b, c = got["baseline"], got["candidate"]
                print("%-13s %-9s %10d %9.2fx %8.2fx %9s" %
                      (mix, "ratio", events, c[0] / b[0], c[1] / b[1],
                       "same" if b[2] == c[2] else "DIFFER"))
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
