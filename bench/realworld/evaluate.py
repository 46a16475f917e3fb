"""Runs capture-lint on a repository's files, plain (for the verdicts) and
with every planned hazard inserted (for regions recognised and hazards
found), and matches the findings (issue 23)."""

import collections
import concurrent.futures
import os
import shutil

import insert
import plan as planner
from common import file_flags, finding_key, rel, run_lint

Outcome = collections.namedtuple(
    "Outcome", "row unclassified problems listing regions hazards "
    "insert_errors findings")


def run_entries(args, root, repo, entries):
    """{entry path: (report or None, error, CPU seconds)} for the entries,
    args.jobs at a time."""
    def one(entry):
        """One entry's run."""
        return entry["path"], run_lint(args.binary, root, entry["path"],
                                       file_flags(repo, entry),
                                       entry.get("with", []))
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        return dict(pool.map(one, entries))


def run_inserted(args, repo, root, plan):
    """Runs every entry on a scratch copy of the export with all of the
    plan's hazards inserted; returns ({hazard id: (line, column)},
    [finding with files relative to the export], [(entry, error)])."""
    scratch = os.path.join(args.src, ".scratch-%d" % os.getpid(),
                           repo["mirror"])
    insert.scratch_copy(root, scratch)
    try:
        where = {}
        for path, edits in planner.edits(plan).items():
            where.update(insert.apply_edits(os.path.join(scratch, path),
                                            edits))
        results = run_entries(args, scratch, repo, repo["files"])
    finally:
        shutil.rmtree(os.path.dirname(scratch), ignore_errors=True)
    findings, errors = [], []
    for path, (report, err, _) in sorted(results.items()):
        if report is None:
            errors.append((path, err))
            continue
        for f in report["findings"]:
            findings.append(relative_finding(scratch, f))
    return where, findings, errors


def relative_finding(root, f):
    """The finding with its file, region file and notes' files relative to
    root."""
    f = dict(f, file=rel(root, f["file"]))
    if f.get("region"):
        f["region"] = dict(f["region"], file=rel(root, f["region"]["file"]))
    f["notes"] = [dict(n, file=rel(root, n["file"]))
                  for n in f.get("notes", [])]
    return f


def recognised_regions(plan, findings):
    """{region id} whose begin some finding's region starts at."""
    starts = {(f["region"]["file"], f["region"]["begin_line"])
              for f in findings if f.get("region")}
    return {rid for rid, r in enumerate(plan.regions)
            if (r.file, r.line) in starts}


def found_hazards(plan, where, findings):
    """({hazard id: how} for the hazards that a finding is at, or has a
    note at (same line, and the hazard's column or API), in a region that
    begins in the function of one of the hazard's own regions; {hazard id:
    how} for those reported only in another region)."""
    at = collections.defaultdict(list)
    for h in plan.hazards:
        if h.id in where:
            line, col = where[h.id]
            at[(h.file, line)].append((col, h))
    # A hazard counts for the function its regions begin in: where several
    # begins flow into the same code (a loop over a switch), capture-lint
    # names one of them as the finding's region.
    func_of = {(r.file, r.line): (r.file, r.func.open) for r in plan.regions}
    owners = collections.defaultdict(set)
    for rid, hids in plan.region_hazards.items():
        r = plan.regions[rid]
        for hid in hids:
            owners[hid].add(func_of[(r.file, r.line)])
    found, elsewhere = {}, {}
    macro_sites = collections.defaultdict(set)   # (file, line) -> hazards
    for rid, hids in plan.region_hazards.items():
        r = plan.regions[rid]
        for hid in hids:
            if hid in plan.macro_hazards:
                macro_sites[(r.file, r.line)].add(hid)
    for f in findings:
        for hid in macro_sites.get((f["file"], f["line"]), ()):
            if f.get("api") == plan.hazards[hid].api:
                found.setdefault(hid, "%s at the macro's use" % f["check"])
        start = (f["region"]["file"], f["region"]["begin_line"]) \
            if f.get("region") else None
        hits = [(h, "%s at the hazard" % f["check"])
                for col, h in at.get((f["file"], f["line"]), ())
                if f.get("column") == col or f.get("api") == h.api]
        hits += [(h, "%s at %s:%d, note here" % (f["check"], f["file"],
                                                 f["line"]))
                 for n in f["notes"]
                 for col, h in at.get((n["file"], n["line"]), ())
                 if n.get("column") == col or h.api in n.get("message", "")]
        for h, how in hits:
            if func_of.get(start) in owners[h.id]:
                found.setdefault(h.id, how)
            else:
                elsewhere.setdefault(h.id, "%s, in the region at %s" % (
                    how, "%s:%d" % start if start else "none"))
    return found, elsewhere


def score_plain(args, repo, root, verdicts, results, causes):
    """The table row from the plain runs: files, parsed, findings and
    verdicts; the unclassified findings, parse problems, --list lines."""
    row = collections.Counter(files=0, parsed=0, findings=0, true=0,
                              false=0, unclear=0, unclassified=0)
    unclassified, problems, listing = [], [], []
    for entry in repo["files"]:
        row["files"] += 1
        report, err, _ = results[entry["path"]]
        if report is None:
            problems.append("%s: does not parse: %s" % (entry["path"], err))
            continue
        row["parsed"] += 1
        for f in report["findings"]:
            row["findings"] += 1
            key = finding_key(repo["name"], root, f)
            v = verdicts.get(key)
            verdict = "unclassified" if v is None else {
                True: "true", False: "false"}.get(v["verdict"], "unclear")
            row[verdict] += 1
            listing.append((verdict, "" if v is None else v.get("cause", ""),
                            key, f["message"][:120]))
            if v is None:
                unclassified.append((key, f["message"][:160]))
            elif v["verdict"] is False:
                causes[v.get("cause", "?")] += 1
    return row, unclassified, problems, listing
