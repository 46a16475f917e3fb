#!/usr/bin/env python3
"""Real-code evaluation of capture-lint (issues 11 and 23).

Exports pinned commits of public repositories from their `fetch` mirrors,
finds every capture region of the analysed files by text (discover.py, no
capture-lint), inserts an obvious hazard after each begin and in up to
three functions called below it (insert.py, plan.py), and reports per
repository how many regions capture-lint recognised and how many hazards
it found; scores each finding of the unmodified code against the verdicts
in verdicts.json; checks the known, later-fixed bugs; compares the counts
with baseline.json (--check) and times capture-lint against clang++
(--timing).

    python3 bench/realworld/run.py BINARY [--repo NAME] [--check]
        [--write-baseline] [--update] [--timing] [--no-inserts] [--list]

No third-party source is kept in this repository: repos.json names the
mirror, commit and paths, and the export lands in --src (default
/work/realworld-src).  See README.md.
"""

import argparse
import collections
import json
import os
import subprocess
import sys

import baseline
import checkinserts
import discover
import evaluate
import exits
import forks
import knownbugs
import plan as planner
import silent
import timing
from common import export_tree, fail, file_flags, load_json

HERE = os.path.dirname(os.path.abspath(__file__))
COLS = ["files", "parsed", "regions", "recognised", "hazards_d0",
        "found_d0", "hazards_below", "found_below", "findings", "true",
        "false", "unclear", "unclassified"]
HEAD = ["files", "parsed", "regions", "recogn", "ins@0", "found@0",
        "ins@1-3", "found@1-3", "findings", "true", "false", "unclear",
        "unclass"]


def parse_args():
    """The command line."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("binary", help="the capture-lint binary to evaluate")
    ap.add_argument("--repo", action="append",
                    help="only this repository (repos.json name; repeatable)")
    ap.add_argument("--update", action="store_true",
                    help="export the pinned commits again")
    ap.add_argument("--timing", action="store_true",
                    help="also time clang++-19 -fsyntax-only per file")
    ap.add_argument("--against", metavar="BINARY",
                    help="timing: also time this capture-lint binary (the "
                    "baseline), interleaved with BINARY")
    ap.add_argument("--repeat", type=int, default=2,
                    help="timing: best of N runs each (default 2)")
    ap.add_argument("--no-inserts", action="store_true",
                    help="skip the inserted hazards and known bugs")
    ap.add_argument("--check", action="store_true",
                    help="compare with baseline.json; exit 1 on a drop")
    ap.add_argument("--write-baseline", action="store_true",
                    help="rewrite baseline.json from this run")
    ap.add_argument("--binary-commit",
                    help="the commit BINARY was built from, for "
                         "--write-baseline (default: this checkout's HEAD)")
    ap.add_argument("--jobs", "-j", type=int, default=1,
                    help="capture-lint runs at a time (default 1)")
    ap.add_argument("--src", default=os.environ.get(
        "REALWORLD_SRC", "/work/realworld-src"),
        help="where the exports go (outside this repository)")
    ap.add_argument("--json", help="also write the results to this file")
    ap.add_argument("--list", action="store_true",
                    help="print every finding with its verdict and cause")
    ap.add_argument("--plan", action="store_true",
                    help="print every region and planned hazard")
    args = ap.parse_args()
    if not os.access(args.binary, os.X_OK):
        fail("'%s' is not an executable capture-lint" % args.binary)
    args.binary = os.path.abspath(args.binary)
    if (args.check or args.write_baseline) and args.no_inserts:
        fail("--check and --write-baseline need the inserted hazards")
    return args


def evaluate_repo(cfg, repo, args, verdicts, causes):
    """Everything measured on one repository (a dict)."""
    root = os.path.join(args.src, repo["mirror"])
    export_tree(cfg, repo, repo["commit"], root, args.update)
    plain = evaluate.run_entries(args, root, repo, repo["files"])
    row, unclassified, problems, listing = evaluate.score_plain(
        args, repo, root, verdicts, plain, causes)
    out = dict(repo=repo, row=row, unclassified=unclassified,
               problems=problems, listing=listing, timings=[], bugs=[],
               plan=None, recognised=set(), found={}, found_elsewhere={},
               insert_errors=[])
    if args.timing:
        for entry in repo["files"]:
            out["timings"].append((entry["path"],) + timing.time_pair(
                args, root, entry, file_flags(repo, entry)))
    if args.no_inserts:
        return out
    plan = planner.make_plan(repo, root, args.binary, args.apis)
    where, findings, errors = evaluate.run_inserted(args, repo, root, plan)
    found, elsewhere = evaluate.found_hazards(plan, where, findings)
    out.update(plan=plan, recognised=evaluate.recognised_regions(
        plan, findings), found=found, found_elsewhere=elsewhere,
        insert_errors=errors)
    count_inserts(out)
    out["exits"], out["exits_found"], exit_errors = exits.run(
        args, repo, root, plan)
    out["insert_errors"] += exit_errors
    row["exits"] = len(out["exits"])
    row["exits_found"] = len(out["exits_found"])
    out["forks"], out["forks_found"], fork_errors = forks.run(
        args, repo, root, plan)
    out["insert_errors"] += fork_errors
    row["forks"] = len(out["forks"])
    row["forks_found"] = len(out["forks_found"])
    out["checks"], out["checks_found"], check_errors = checkinserts.run(
        args, repo, root, plan)
    out["insert_errors"] += check_errors
    for kind in checkinserts.KINDS:
        name = kind.replace("-", "_")
        row[name] = sum(k == kind for (_, k), _, _ in out["checks"])
        row[name + "_found"] = sum(k == kind for _, k in out["checks_found"])
    for bug in repo.get("known_bugs", []):
        out["bugs"].append((bug, knownbugs.check_known_bug(
            cfg, args.binary, repo, bug, args.src, args.update)))
    row["known_bugs"] = len(out["bugs"])
    row["known_bugs_found"] = sum(r == "found" for _, (r, _) in out["bugs"])
    return out


def count_inserts(out):
    """Adds the region and hazard counts to the row."""
    row, plan = out["row"], out["plan"]
    row["regions"] = len(plan.regions)
    row["recognised"] = len(out["recognised"])
    for h in plan.hazards:
        row["hazards_d%d" % h.depth] += 1
        row["found_d%d" % h.depth] += h.id in out["found"]
    row["hazards_below"] = sum(row["hazards_d%d" % d] for d in (1, 2, 3))
    row["found_below"] = sum(row["found_d%d" % d] for d in (1, 2, 3))


def precision(row):
    """true / (true + false), as a percentage."""
    judged = row["true"] + row["false"]
    return "%.0f%%" % (100.0 * row["true"] / judged) if judged else "-"


def print_table(results):
    """The per-repository table and its total."""
    print("%-16s " % "repo" + " ".join("%7s" % h for h in HEAD)
          + " %9s" % "precision")
    total = collections.Counter()
    for res in results:
        row = res["row"]
        total.update(row)
        print("%-16s " % res["repo"]["name"][:16]
              + " ".join("%7d" % row[c] for c in COLS)
              + " %9s" % precision(row))
    print("%-16s " % "TOTAL" + " ".join("%7d" % total[c] for c in COLS)
          + " %9s" % precision(total))
    return total


def region_text(region, notes):
    """One region for the listings."""
    note = notes.get((region.file, region.line))
    return "%s:%d %s %s (in %s)%s" % (
        region.file, region.line, region.kind, region.name, region.func.qual,
        "  [note: %s]" % note if note else "")


def region_notes(repo):
    """{(file, line): note} from the file entries' `region_notes`."""
    out = {}
    for entry in repo["files"]:
        for line, note in entry.get("region_notes", {}).items():
            out[(entry["path"], int(line))] = note
    return out


def missed_inserts(res):
    """The inserted exits, forks and check insertions a run did not find,
    as `not_found` lists them ("exit FILE:LINE (...)", "fork ...",
    "dangling-local ...")."""
    plan = res["plan"]
    return (["exit " + m for m in exits.missed_text(
        plan, res["exits"], res["exits_found"])] +
            ["fork " + m for m in exits.missed_text(
                plan, res["forks"], res["forks_found"])] +
            checkinserts.missed_text(plan, res["checks"],
                                     res["checks_found"]))


def placed_keys(res):
    """silent.key_of keys of every insertion placed in a run."""
    keys = {"exit %s:%d" % (f, line) for _, f, line in res["exits"]}
    keys |= {"fork %s:%d" % (f, line) for _, f, line in res["forks"]}
    keys |= {"%s %s:%d" % (kind, f, line)
             for (_, kind), f, line in res["checks"]}
    return keys


def print_silent(results, listed):
    """How many missed insertions silent.json explains, and the listed ones
    this run found."""
    n_silent = n_unexplained = 0
    for res in results:
        if res["plan"] is None:
            continue
        name = res["repo"]["name"]
        mine = listed.get(name, {})
        missed = missed_inserts(res)
        quiet, unexplained = silent.split(mine, missed)
        n_silent += len(quiet)
        n_unexplained += len(unexplained)
        for key in silent.now_found(mine, placed_keys(res), missed):
            print("SILENT-BUT-FOUND %s %s  [listed as: %s]" % (
                name, key, mine[key]))
    print("inserted exits, forks and check insertions not found: %d rightly "
          "silent (silent.json gives each reason), %d unexplained" % (
              n_silent, n_unexplained))


def print_regions(results, silent_listed):
    """Every region not recognised, hazard not found, and what discovery
    left out."""
    for res in results:
        plan, name = res["plan"], res["repo"]["name"]
        if plan is None:
            continue
        notes = region_notes(res["repo"])
        for rid, region in enumerate(plan.regions):
            if rid not in res["recognised"]:
                print("REGION-NOT-RECOGNISED %s %s" % (
                    name, region_text(region, notes)))
        for h in plan.hazards:
            if h.id not in res["found"]:
                print("HAZARD-NOT-FOUND %s %s:%d depth %d (%s)%s" % (
                    name, h.file, h.line, h.depth, h.where,
                    "  [reported: %s]" % res["found_elsewhere"][h.id]
                    if h.id in res["found_elsewhere"] else ""))
        listed = silent_listed.get(name, {})
        for item in missed_inserts(res):
            kind, text = item.split(" ", 1)
            label = {"exit": "EXIT-NOT-FOUND", "fork": "FORK-NOT-FOUND"}.get(
                kind, "CHECK-INSERT-NOT-FOUND")
            reason = listed.get(silent.key_of(item))
            print("%s %s %s%s" % (
                label, name, text if kind in ("exit", "fork") else item,
                "  [rightly silent: %s]" % reason if reason else ""))
        for path, err in res["insert_errors"]:
            print("INSERT-RUN-ERROR %s %s: %s" % (name, path, err[:300]))
        for path, line, why in plan.no_point:
            print("NO-INSERTION-POINT %s %s:%d %s" % (name, path, line, why))
        for path, line, what in plan.inactive:
            print("INACTIVE %s %s:%d %s (not compiled with these flags)"
                  % (name, path, line, what))
        for path, err in plan.errors:
            print("PLAN-ERROR %s %s: %s" % (name, path, err[:300]))
        for path, line, why in plan.left_out[:5]:
            print("LEFT-OUT %s %s:%d %s" % (name, path, line, why))
        if len(plan.left_out) > 5:
            print("LEFT-OUT %s ... and %d more" % (
                name, len(plan.left_out) - 5))
        if plan.elsewhere:
            print("ELSEWHERE %s %d begin calls in %d files not analysed: %s"
                  % (name, sum(plan.elsewhere.values()), len(plan.elsewhere),
                     ", ".join(sorted(plan.elsewhere)[:6])))


def print_plan(results):
    """--plan: every region and the hazards planned for it."""
    for res in results:
        plan = res["plan"]
        if plan is None:
            continue
        notes = region_notes(res["repo"])
        print("PLAN %s roles: %s" % (res["repo"]["name"], json.dumps(
            plan.roles, sort_keys=True)))
        for rid, region in enumerate(plan.regions):
            print("PLAN  region %s%s" % (region_text(region, notes), "" if
                  rid in res["recognised"] else "  NOT RECOGNISED"))
            for hid in plan.region_hazards[rid]:
                h = plan.hazards[hid]
                print("PLAN    hazard depth %d %s:%d (%s) %s" % (
                    h.depth, h.file, h.line, h.where,
                    res["found"].get(h.id, "NOT FOUND " + res[
                        "found_elsewhere"].get(h.id, ""))))


def print_findings(results, causes):
    """Unclassified findings, parse problems and (--list) every finding."""
    if causes:
        print("false findings by root cause (verdicts.json 'cause'): "
              + ", ".join("%s %d" % kv for kv in causes.most_common()))
    for res in results:
        for p in res["problems"]:
            print("PARSE %s: %s" % (res["repo"]["name"], p))
        for key, msg in res["unclassified"]:
            print("UNCLASSIFIED %s  %s" % (key, msg))


def print_known_bugs(results):
    """The known bugs and whether each was found."""
    found = total = 0
    print("\nknown bugs (code before the fix):")
    for res in results:
        for bug, (result, why) in res["bugs"]:
            total += 1
            found += result == "found"
            print("  %-7s %s %s@%s  (%s)" % (result, res["repo"]["name"],
                                             bug["file"], bug["commit"][:10],
                                             why))
    print("known bugs found: %d of %d" % (found, total))


def print_timing(results):
    """--timing: capture-lint against clang++ (and --against), per file."""
    print("\ntiming (CPU seconds, user+sys, best of --repeat; capture-lint "
          "-j1 vs clang++-19 -fsyntax-only%s):" % (
              "; then the --against binary and candidate/baseline"
              if any(t[4] is not None for r in results
                     for t in r["timings"]) else ""))
    worst = 0.0
    total_lint = total_base = 0.0
    for res in results:
        for path, lint, clang, crc, base in res["timings"]:
            ratio = lint / clang if clang > 0 else float("inf")
            worst = max(worst, ratio)
            against = ""
            if base is not None:
                total_lint, total_base = total_lint + lint, total_base + base
                against = " %7.2f %6.2fx" % (
                    base, lint / base if base > 0 else float("inf"))
            print("  %-10s %-60s %7.2f %7.2f %6.2fx%s%s" % (
                res["repo"]["name"], path[-60:], lint, clang, ratio, against,
                "" if crc == 0 else "  (clang rc=%d)" % crc))
    print("worst ratio: %.2fx (target <= 1.15x)" % worst)
    if total_base > 0:
        print("candidate/baseline over all files: %.2f s / %.2f s = %.3fx" % (
            total_lint, total_base, total_lint / total_base))


def baseline_entries(results):
    """{repo: baseline entry} for this run."""
    out = {}
    for res in results:
        plan = res["plan"]
        unrec = ["%s:%d" % (r.file, r.line) for rid, r in
                 enumerate(plan.regions) if rid not in res["recognised"]]
        missed = ["%s:%d depth %d" % (h.file, h.line, h.depth)
                  for h in plan.hazards if h.id not in res["found"]]
        missed += missed_inserts(res)
        out[res["repo"]["name"]] = baseline.entry(res["row"], unrec, missed)
    return out


def binary_commit():
    """The commit of this checkout (what the binary is assumed built from)."""
    proc = subprocess.run(["git", "-C", HERE, "rev-parse", "--short", "HEAD"],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    return proc.stdout.decode().strip()


def main():
    """Runs the evaluation and prints the report."""
    args = parse_args()
    args.apis = discover.catalog_apis()
    cfg = load_json(os.path.join(HERE, "repos.json"))
    verdicts = load_json(os.path.join(HERE, "verdicts.json"))
    repos = cfg["repos"]
    if args.repo:
        repos = [r for r in repos if r["name"] in args.repo]
        if len(repos) != len(set(args.repo)):
            fail("no repository named %s in repos.json" % ", ".join(
                sorted(set(args.repo) - {r["name"] for r in repos})))
    causes = collections.Counter()
    results = []
    for repo in repos:
        print("... %s" % repo["name"], file=sys.stderr, flush=True)
        results.append(evaluate_repo(cfg, repo, args, verdicts, causes))
    if args.list:
        for res in results:
            for verdict, cause, key, msg in res["listing"]:
                print("LIST %-12s %-5s %s  %s" % (verdict, cause, key, msg))
    if args.plan:
        print_plan(results)
    total = print_table(results)
    print_findings(results, causes)
    if not args.no_inserts:
        print("\nregions recognised: %d of %d; hazards found after the "
              "begin: %d of %d, below it: %d of %d" % (
                  total["recognised"], total["regions"], total["found_d0"],
                  total["hazards_d0"], total["found_below"],
                  total["hazards_below"]))
        print("early exits found (capture-unended-on-error): %d of %d" % (
            total["exits_found"], total["exits"]))
        print("unjoined forks found (capture-unjoined-stream): %d of %d" % (
            total["forks_found"], total["forks"]))
        for kind, check in checkinserts.KINDS.items():
            name = kind.replace("-", "_")
            print("inserted %s found (%s): %d of %d" % (
                kind, check, total[name + "_found"], total[name]))
        silent_listed = silent.load()
        print_regions(results, silent_listed)
        print_silent(results, silent_listed)
        print_known_bugs(results)
    if args.timing:
        print_timing(results)
    status = 0
    if args.check:
        failures = baseline.compare(baseline_entries(results),
                                    bool(args.repo))
        print("baseline check: %s" % ("FAILED (%d)" % len(failures)
                                      if failures else "ok"))
        status = 1 if failures else 0
    if args.write_baseline:
        baseline.write(baseline_entries(results),
                       args.binary_commit or binary_commit())
        print("wrote %s" % baseline.BASELINE)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"totals": total, "repos": {
                r["repo"]["name"]: r["row"] for r in results}}, f, indent=1)
    sys.exit(status)


if __name__ == "__main__":
    main()
