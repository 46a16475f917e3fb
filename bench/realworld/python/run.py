#!/usr/bin/env python3
"""The Python real-code evaluation of capture-lint: recall and precision.

    python3 bench/realworld/python/run.py BINARY [--check | --write-baseline]
        [--mirrors DIR] [--out DIR] [--repo OWNER/NAME ...] [--no-recall]

For each repository of repos.txt (a bare mirror from the fetch tool, at the
pinned commit; only the .py files are exported, to --out):
  - every capture region is found without capture-lint (harness/regions.py);
  - capture-lint runs on the unmodified tree (the findings, scored against
    verdicts.json), then on copies with `torch.cuda.synchronize()` inserted
    at the start of every region's body (level 0: is the region
    recognised, is the hazard found?) and at the start of the functions it
    calls, one to three levels down (levels 1-3: found?);
  - and on copies where each region's body starts with a call that reaches
    a hazard through one call shape (module attribute, Sequential,
    ModuleList, annotated parameter, partial, ...), and through a plain
    function for each hazard kind (harness/shapes.py);
then the configured runs of run.sh (lmdeploy forwards declared captured,
NeMo and lmdeploy with assume-*.json).  --check compares with baseline.json
and exits 1 when recognised regions or found hazards drop;
--write-baseline rewrites it.  See README.md.
"""

import argparse
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from harness import configs, evaluate, precision, report, shapes  # noqa: E402
from harness.lint import export, fail, run_lint  # noqa: E402
from harness.project import Project  # noqa: E402
from harness.regions import discover  # noqa: E402


def read_repos(path):
    """[(owner/name, commit)] from repos.txt."""
    out = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if len(line) >= 2:
                out.append((line[0], line[1]))
    return out


def parse_args():
    """The command line."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("binary", help="the capture-lint binary to evaluate")
    p.add_argument("--check", action="store_true",
                   help="compare with baseline.json; exit 1 on a drop")
    p.add_argument("--write-baseline", action="store_true",
                   help="rewrite baseline.json from this run (with --check: "
                   "after printing the differences)")
    p.add_argument("--mirrors", default="/work/.mirror",
                   help="the fetch tool's mirror root (owner+name/repo)")
    p.add_argument("--out", default="/tmp/rw-py",
                   help="scratch directory: exports, copies, JSON, report")
    p.add_argument("--repo", action="append", default=[],
                   help="only these repositories (owner/name); repeatable")
    p.add_argument("--no-recall", action="store_true",
                   help="only the unmodified trees (precision)")
    p.add_argument("--no-shapes", action="store_true",
                   help="no call-shape and hazard-kind runs (harness/shapes.py)")
    p.add_argument("--baseline", default=os.path.join(HERE, "baseline.json"))
    p.add_argument("--verdicts", default=os.path.join(HERE, "verdicts.json"))
    args = p.parse_args()
    if args.write_baseline and (args.repo or args.no_recall or
                                args.no_shapes):
        p.error("--write-baseline needs every repository, the recall runs "
                "and the call shapes (no --repo, --no-recall, --no-shapes)")
    return args


class Log:
    """Prints and keeps every line for the report file."""

    def __init__(self):
        self.lines = []

    def __call__(self, line=""):
        print(line, flush=True)
        self.lines.append(line)


def evaluate_repo(binary, repo, commit, args, log):
    """Exports, discovers, runs and scores one repository; returns (stats,
    pristine LintResult, export root)."""
    name = repo.replace("/", "+")
    src = os.path.join(args.out, "src", name)
    export(os.path.join(args.mirrors, name, "repo"), commit, src)
    project = Project(src)
    regions, _helpers = discover(project)
    work = os.path.join(args.out, "copy", name)
    os.makedirs(work, exist_ok=True)
    pristine = run_lint(binary, src, ["."], os.path.join(work, "orig.json"))
    log("%s: %d files, %d regions, %d findings, %d remarks (%.1f s)" % (
        repo, len(project.rels), len(regions), len(pristine.counted()),
        len(pristine.remarks()), pristine.seconds))
    levels = evaluate.plan(project, regions)
    if args.no_recall:
        for r in regions:
            r.recognised = False
    else:
        evaluate.run_levels(binary, project, src, work, levels, regions, log)
    stats = report.repo_stats(project, regions, levels, pristine)
    if not args.no_recall and not args.no_shapes:
        stats["shapes"] = shapes.run_shapes(binary, project, src, work,
                                            regions, log)
    return stats, pristine, src


def main():
    """Runs everything, prints the report, and applies the baseline mode."""
    args = parse_args()
    log = Log()
    os.makedirs(args.out, exist_ok=True)
    if not os.access(args.binary, os.X_OK):
        fail("no capture-lint binary at " + args.binary)
    binary = os.path.join(args.out, "capture-lint")
    shutil.copy2(args.binary, binary)  # a rebuild mid-run changes nothing
    repos = read_repos(os.path.join(HERE, "repos.txt"))
    if args.repo:
        repos = [(r, c) for r, c in repos if r in args.repo]
        if not repos:
            fail("no such repository in repos.txt: " + ", ".join(args.repo))
    all_stats, sets, srcs = {}, [], {}
    for repo, commit in repos:
        stats, pristine, src = evaluate_repo(binary, repo, commit, args, log)
        all_stats[repo], srcs[repo] = stats, src
        sets.append((repo, pristine.findings))
    cfg_results = configs.run_configs(binary, HERE, srcs, args.out, log)
    cfg_stats = {}
    for name, res in cfg_results.items():
        sets.append((name, res.findings))
        cfg_stats[name] = {"files": res.files, "findings": len(res.counted()),
                           "remarks": len(res.remarks())}
    log()
    if not args.no_recall:
        for repo, s in all_stats.items():
            report.print_misses(repo, s, log)
        log()
    report.print_table(all_stats, log)
    log()
    report.print_shapes(all_stats, log)
    log()
    counts, unclassified = precision.classify(
        sets, precision.load_verdicts(args.verdicts))
    precision.print_precision(counts, unclassified, log)
    return finish(args, log, all_stats, cfg_stats, sets)


def finish(args, log, all_stats, cfg_stats, sets):
    """Writes results.json and the report; applies --check/--write-baseline.
    Returns the exit status."""
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump({"repos": all_stats, "configs": cfg_stats,
                   "findings": {r: fs for r, fs in sets}}, f, indent=1)
    status = 0
    if args.check:
        base = report.load_baseline(args.baseline)
        if args.repo:  # only what was run
            base["repos"] = {r: s for r, s in base["repos"].items()
                             if r in all_stats}
            base["configs"] = {c: s for c, s in base["configs"].items()
                               if c in cfg_stats}
        log()
        log("differences from %s:" % os.path.relpath(args.baseline))
        failed = report.compare(base["repos"], all_stats, base["configs"],
                                cfg_stats, log)
        log("check: %s" % ("FAILED (a drop)" if failed else "passed"))
        status = 1 if failed else 0
    if args.write_baseline:
        report.write_baseline(args.baseline, "python3 run.py BINARY "
                              "--write-baseline; see README.md",
                              all_stats, cfg_stats)
        log("wrote " + os.path.relpath(args.baseline))
    with open(os.path.join(args.out, "report.txt"), "w") as f:
        f.write("\n".join(log.lines) + "\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
