"""The regression gate (issue 23): per-repository counts kept in
baseline.json, compared with a run (`run.py BINARY --check`) and rewritten
with `--write-baseline`."""

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
BASELINE = os.path.join(HERE, "baseline.json")

# Counts that fail the gate when they go down / up.
MUST_NOT_DROP = ("recognised", "found_d0", "found_d1", "found_d2",
                 "found_d3", "exits_found", "forks_found", "true",
                 "known_bugs_found", "host_update_found",
                 "dangling_local_found", "uneven_collective_found",
                 "unchecked_end_found")
MUST_NOT_RISE = ("false",)
INFO = ("files", "parsed", "regions", "hazards_d0", "hazards_d1",
        "hazards_d2", "hazards_d3", "exits", "forks", "findings", "unclear",
        "unclassified", "known_bugs", "host_update", "dangling_local",
        "uneven_collective", "unchecked_end")


def entry(counts, unrecognised, not_found):
    """A repository's baseline entry: the counts and, to say which moved,
    the regions not recognised and hazards not found (file:line)."""
    out = {k: counts.get(k, 0) for k in INFO + MUST_NOT_DROP + MUST_NOT_RISE}
    out["unrecognised"] = sorted(unrecognised)
    out["not_found"] = sorted(not_found)
    return out


def write(entries, commit, path=BASELINE):
    """Writes baseline.json (only the repositories run are replaced)."""
    old = load(path)
    repos = dict(old.get("repos", {}))
    repos.update(entries)
    doc = {"comment": "per-repository counts of bench/realworld/run.py; "
                      "run.py BINARY --check fails when recognised regions, "
                      "found hazards, true findings or found known bugs "
                      "drop, or false findings rise; --write-baseline "
                      "rewrites it (README.md)",
           "binary_commit": commit,
           "repos": dict(sorted(repos.items()))}
    with open(path, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=False)
        f.write("\n")


def load(path=BASELINE):
    """The baseline document ({} when there is none)."""
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return json.load(f)


def compare(entries, partial, path=BASELINE):
    """Prints every difference between this run's entries and the
    baseline; returns the list of differences that fail the gate."""
    base = load(path).get("repos", {})
    failures = []
    for name in sorted(entries):
        now, was = entries[name], base.get(name)
        if was is None:
            print("BASELINE %s: not in baseline.json (new repository)" % name)
            continue
        for key in INFO + MUST_NOT_DROP + MUST_NOT_RISE:
            a, b = was.get(key, 0), now.get(key, 0)
            if a == b:
                continue
            bad = (key in MUST_NOT_DROP and b < a) or (
                key in MUST_NOT_RISE and b > a)
            line = "BASELINE %s: %s %d -> %d%s" % (
                name, key, a, b, "  FAIL" if bad else "")
            print(line)
            if bad:
                failures.append(line)
        for key, what in (("unrecognised", "region no longer recognised"),
                          ("not_found", "hazard no longer found")):
            for item in sorted(set(now[key]) - set(was.get(key, []))):
                print("BASELINE %s: %s: %s" % (name, what, item))
            for item in sorted(set(was.get(key, [])) - set(now[key])):
                print("BASELINE %s: now %s: %s" % (
                    name, "recognised" if key == "unrecognised" else "found",
                    item))
    for name in sorted(set(base) - set(entries) if not partial else ()):
        print("BASELINE %s: in baseline.json, not run" % name)
    return failures
