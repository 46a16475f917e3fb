#!/usr/bin/env python3
"""The probe's report size on a real multi-layer model (torch_layers.py:
torch.compile reduce-overhead and a torch.cuda.graph per layer and length),
against the same report with every stack written in its call (how reports
were written before the 'stacks' table): one run, both sizes, the number of
captures, the clean calls left out, and the classes (the verdicts: the same
report, so the same).
Target: under 5 MB with hundreds of captures.
Then the same program once more with the injection library alone, keeping
its event log: the log's size, and the size with each stack written in its
event (how logs were written before stack lines).
usage: report_size.py CAPTURE_PROBE OUT_DIR [LAYERS LENGTHS]"""
import json
import os
import subprocess
import sys

probe, out_dir = sys.argv[1:3]
layers = sys.argv[3] if len(sys.argv) > 3 else "12"
lengths = sys.argv[4] if len(sys.argv) > 4 else "16"
here = os.path.dirname(os.path.abspath(__file__))
report = os.path.join(out_dir, "torch_layers.json")
p = subprocess.run([probe, "run", "--quiet", "--fail-on", "any", "--report",
                    report, "--", sys.executable,
                    os.path.join(here, "torch_layers.py"), layers, lengths],
                   capture_output=True, text=True, timeout=540)
print(p.stdout[-1000:])
print(p.stderr[-3000:])
r = json.load(open(report))
size = os.path.getsize(report)


def inline(doc):
    """The report with each call's stack written in the call."""
    rows = doc.get("stacks", [])
    for c in doc["captures"]:
        calls = c["calls"] + c.get("unjoined_streams", []) + [
            c[k] for k in ("begin", "end", "fallback", "stale_free",
                           "stale_launch") if c.get(k)]
        for k in calls:
            row = rows[k.pop("stack_ref")] if "stack_ref" in k else \
                {"frames": [], "stack": []}
            k["stack"], k["frames"] = row["stack"], row["frames"]
    doc.pop("stacks", None)
    return doc


inline_size = len(json.dumps(inline(json.loads(open(report).read())),
                             indent=2))
captures = sum(c.get("repeats", 1) for c in r["captures"])
omitted = sum(c.get("clean_calls_omitted", 0) for c in r["captures"])
print(f"report: {size / 1e6:.2f} MB for {captures} captures in "
      f"{len(r['captures'])} records, {len(r.get('stacks', []))} distinct "
      f"stacks; with stacks in the calls: {inline_size / 1e6:.2f} MB "
      f"({inline_size / max(size, 1):.1f}x); {omitted} cleanly captured "
      f"calls left out; classes {r['classes']}")
# Where the bytes are: the top fields, and each record's calls.
parts = {}
for c in r["captures"]:
    for k in c["calls"]:
        for key, v in k.items():
            parts["calls." + key] = parts.get("calls." + key, 0) + \
                len(json.dumps(v, indent=2))
for row in r.get("stacks", []):
    for key in ("frames", "stack"):
        parts["stacks." + key] = parts.get("stacks." + key, 0) + \
            len(json.dumps(row[key], indent=2))
print("largest parts:", ", ".join("%s %.2f MB" % (k, v / 1e6) for k, v in
                                  sorted(parts.items(),
                                         key=lambda kv: -kv[1])[:6]))
print("records (repeats, calls listed, clean calls left out):",
      [(c.get("repeats", 1), len(c["calls"]), c.get("clean_calls_omitted", 0))
       for c in r["captures"]])


def log_sizes():
    """(bytes, bytes with each stack in its event, events, stack lines) of
    the event logs of one more run of the program, with the injection
    library beside capture-probe and no report."""
    log_dir = os.path.join(out_dir, "torch_layers_logs")
    os.makedirs(log_dir, exist_ok=True)
    env = dict(os.environ, CAPTURE_PROBE_LOG=os.path.join(
        log_dir, "events.%p.jsonl"), CUDA_INJECTION64_PATH=os.path.join(
        os.path.dirname(os.path.abspath(probe)), "libcapture_probe_cuda.so"))
    subprocess.run([sys.executable, os.path.join(here, "torch_layers.py"),
                    layers, lengths], env=env, capture_output=True,
                   timeout=540)
    size = inlined = events = stack_lines = 0
    for name in os.listdir(log_dir):
        stacks = {}
        with open(os.path.join(log_dir, name)) as f:
            for line in f:
                size += len(line)
                e = json.loads(line)
                if "stack" in e:
                    stacks[e["stack"]] = e["frames"]
                    stack_lines += 1
                    continue
                events += 1
                if "stack_ref" in e:
                    e["frames"] = stacks[e.pop("stack_ref")]
                inlined += len(json.dumps(e, separators=(",", ":"))) + 1
        os.remove(os.path.join(log_dir, name))
    return size, inlined, events, stack_lines


log_size, log_inlined, log_events, log_stacks = log_sizes()
print(f"event log: {log_size / 1e6:.2f} MB for {log_events} events and "
      f"{log_stacks} stack lines; with each stack in its event: "
      f"{log_inlined / 1e6:.2f} MB ({log_inlined / max(log_size, 1):.1f}x)")
failures = []
if log_events == 0:
    failures.append("no event log written")
if p.returncode != 0:
    failures.append(f"exit {p.returncode} under --fail-on any")
if captures < 100:
    failures.append(f"only {captures} captures")
if size >= 5e6:
    failures.append(f"report {size / 1e6:.2f} MB, target under 5 MB")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
