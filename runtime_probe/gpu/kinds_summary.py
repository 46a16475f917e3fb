#!/usr/bin/env python3
"""Medians of `probe-bench kinds` lines by variant and kind of call.

Reads lines "kinds VARIANT kinds N (us per capture): KIND US ... total US"
(launch_modes.sh, compare_probes.sh) and prints, per variant, the median
microseconds per capture of each kind of call and the total's ratio to the
variant "plain" (a kind a variant lacks counts 0).

usage: kinds_summary.py FILE"""
import re
import statistics
import sys

LINE = re.compile(r"kinds (\S+) kinds \d+ \(us per capture\): (.*)")


def read(path):
    runs = {}
    for line in open(path):
        m = LINE.match(line)
        if m:
            parts = m.group(2).split()
            runs.setdefault(m.group(1), []).append(
                {parts[i]: float(parts[i + 1]) for i in range(0, len(parts), 2)})
    return runs


def main():
    runs = read(sys.argv[1])
    if "plain" not in runs:
        sys.exit("kinds_summary.py: no plain runs in " + sys.argv[1])
    kinds = []  # every variant's kinds, in the order first seen
    for rs in runs.values():
        kinds += [k for k in rs[0] if k not in kinds and k != "total"]
    kinds.append("total")
    plain = statistics.median(r["total"] for r in runs["plain"])
    print(f"{'median us per capture':22}" + "".join(f"{k:>13}" for k in kinds)
          + "   ratio")
    for name, rs in runs.items():
        med = {k: statistics.median(r.get(k, 0.0) for r in rs) for k in kinds}
        print(f"{name + f' ({len(rs)})':22}"
              + "".join(f"{med[k]:13.2f}" for k in kinds)
              + f"   {med['total'] / plain:.3f}x plain")


if __name__ == "__main__":
    main()
