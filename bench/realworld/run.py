#!/usr/bin/env python3
"""Real-code evaluation of capture-lint (issue 11).

Exports pinned commits of public repositories from their `fetch` mirrors,
runs capture-lint on every file that holds a capture region, and scores each
finding against the hand-made verdicts in verdicts.json.  Also checks that a
hazard inserted into each region is found, that bugs the projects later
fixed are found in the code before the fix, and (--timing) compares the time
of capture-lint with `clang++-19 -fsyntax-only` on the same flags.

    python3 bench/realworld/run.py BINARY [--repo NAME] [--update]
                                          [--timing] [--no-inserts]

No third-party source is kept in this repository: repos.json names the
mirror, commit and paths, and the export lands in --src (default
/work/realworld-src).  See README.md.
"""

import argparse
import collections
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile

CAUSES = collections.Counter()  # false findings per root-cause code
HERE = os.path.dirname(os.path.abspath(__file__))
STUBS = os.path.join(HERE, "stubs")
CLANG = "clang++-19"


def fail(msg):
    print("run.py: error: " + msg, file=sys.stderr)
    sys.exit(2)


def load_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        fail("cannot read %s: %s" % (path, e))


# ---------------------------------------------------------------- export


def mirror_dir(cfg, repo):
    return os.path.join(cfg["mirror_root"], repo["mirror"], "repo")


def export_tree(cfg, repo, commit, dest, update):
    """Exports repo['export'] at commit into dest (once, or again with
    --update), then writes the generated headers."""
    stamp = os.path.join(dest, ".exported-" + commit)
    if os.path.exists(stamp) and not update:
        return
    mirror = mirror_dir(cfg, repo)
    if not os.path.isdir(mirror):
        fail("no mirror for %s at %s: run the fetch tool for github:%s"
             % (repo["name"], mirror, repo["github"]))
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    os.makedirs(dest)
    export = repo.get("export", [])
    archive = subprocess.run(
        ["git", "-C", mirror, "archive", commit] + export,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if archive.returncode != 0:
        fail("git archive of %s at %s failed: %s"
             % (repo["name"], commit, archive.stderr.decode()[:400]))
    subprocess.run(["tar", "-x", "-C", dest], input=archive.stdout,
                   check=True)
    for dep in repo.get("deps", []):
        # A submodule or third-party dependency, from its own mirror.
        into = os.path.join(dest, dep["into"])
        os.makedirs(into, exist_ok=True)
        export_tree(cfg, dict(dep, name=dep["mirror"], generate=[], deps=[]),
                    dep["commit"], into, True)
    for gen in repo.get("generate", []):
        if "text" in gen:
            text = gen["text"]
        else:
            text = open(os.path.join(dest, gen["from"])).read()
        for old, new in gen.get("replace", {}).items():
            text = text.replace(old, new)
        out = os.path.join(dest, gen["to"])
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "w") as f:
            f.write(text)
    open(stamp, "w").close()


# ---------------------------------------------------------------- running


def expand(flags):
    return [f.replace("{stubs}", STUBS) for f in flags]


def file_flags(repo, entry):
    return expand(entry.get("flags", repo["flags"]))


def child_cpu_seconds():
    """User plus system CPU time of the finished child processes: steadier
    than wall time on a shared machine (another job's load barely moves
    it)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_lint(binary, root, path, flags, also=()):
    """Runs capture-lint on one file (with the files that define its
    callees, `also`, so that calls into them are followed); returns (report
    or None, error text, CPU seconds)."""
    cmd = [binary, "--format=json", "--quiet", "-j", "1", path] + list(also)
    cmd += ["--"] + flags
    start = child_cpu_seconds()
    proc = subprocess.run(cmd, cwd=root, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=900)
    took = child_cpu_seconds() - start
    try:
        report = json.loads(proc.stdout.decode())
    except ValueError:
        return None, proc.stderr.decode()[-600:], took
    errors = report.get("errors", [])
    if proc.returncode == 2 or errors:
        text = "; ".join(e.get("message", "")[:200] for e in errors[:3])
        return None, text or proc.stderr.decode()[-600:], took
    return report, "", took


def rel(root, path):
    path = os.path.realpath(path)
    root = os.path.realpath(root)
    return os.path.relpath(path, root) if path.startswith(root) else path


def finding_key(repo, root, f):
    return "|".join([repo, rel(root, f["file"]), str(f["line"]), f["check"],
                     f.get("api") or ""])


# ---------------------------------------------------------------- inserts


def with_inserted_line(src, line, stmt, tag):
    """Copies src beside itself with stmt inserted after `line`; a #line
    directive keeps the later lines' numbers.  Returns the copy's path."""
    lines = open(src, errors="replace").read().split("\n")
    if line < 1 or line > len(lines):
        fail("insertion line %d is outside %s" % (line, src))
    added = [stmt, "#line %d" % (line + 1)]
    stem, ext = os.path.splitext(src)
    copy = "%s.capture_lint_%s%s" % (stem, tag, ext)
    with open(copy, "w") as f:
        f.write("\n".join(lines[:line] + added + lines[line:]))
    return copy


def check_insert(binary, root, repo, entry, ins, index):
    src = os.path.join(root, entry["path"])
    copy = with_inserted_line(src, ins["line"], ins["stmt"], "insert%d" % index)
    try:
        report, err, _ = run_lint(binary, root, rel(root, copy),
                                  file_flags(repo, entry),
                                  entry.get("with", []))
    finally:
        os.remove(copy)
    if report is None:
        return "error", err
    api = ins["stmt"].split("(")[0].strip()
    for f in report["findings"]:
        if (os.path.realpath(f["file"]) == os.path.realpath(copy)
                and f["line"] == ins["line"] + 1):
            return "found", "%s %s" % (f["check"], f.get("api"))
    return "missed", "no finding at the inserted '%s'" % api


# ---------------------------------------------------------------- timing


def essential_flags(flags, binary):
    """The flags capture-lint adds to an explicit command line
    (tool/lib/CompileFlags.cpp: addEssentials), so that the clang++ run
    parses exactly what capture-lint parses."""
    lang = None
    for i, f in enumerate(flags):
        if f == "-x" and i + 1 < len(flags):
            lang = flags[i + 1]
    extra = []
    if lang == "cuda":
        extra += ["--cuda-host-only", "-Wno-unknown-cuda-version"]
        if not any(f.startswith("--cuda-path") or f == "-nocudainc"
                   for f in flags):
            extra.append("--cuda-path=/usr/local/cuda")
        if not any("__CUDACC_VER_MAJOR__" in f or f == "-nocudainc"
                   for f in flags):
            extra += nvcc_version_macros()
        # As tool/capture-lint/Main.cpp finds it: installed beside the
        # binary, else (a build tree) the source tree's tool/compat.
        compat = os.path.join(os.path.dirname(os.path.realpath(binary)),
                              "..", "share", "capture-lint", "compat")
        if not os.path.isdir(compat):
            compat = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                  "..", "..", "tool", "compat")
        if os.path.isdir(compat):
            extra += ["-idirafter", os.path.normpath(compat)]
        if os.path.isdir("/usr/local/cuda/include/cccl"):
            extra += ["-idirafter", "/usr/local/cuda/include/cccl"]
    elif lang == "hip":
        extra.append("--offload-host-only")
    extra.append("-Wno-unused-command-line-argument")
    return extra


def nvcc_version_macros(cuda="/usr/local/cuda"):
    """nvcc's version macros, from the toolkit's cuda.h (as capture-lint
    defines them)."""
    try:
        with open(os.path.join(cuda, "include", "cuda.h")) as header:
            for line in header:
                parts = line.split()
                if parts[:2] == ["#define", "CUDA_VERSION"] and len(parts) > 2:
                    v = int(parts[2])
                    return ["-D__CUDACC_VER_MAJOR__=%d" % (v // 1000),
                            "-D__CUDACC_VER_MINOR__=%d" % (v % 1000 // 10),
                            "-D__CUDACC_VER_BUILD__=0"]
    except (OSError, ValueError):
        pass
    return []


def time_clang(root, path, flags, binary):
    cmd = [CLANG, "-fsyntax-only"] + flags + essential_flags(flags, binary)
    cmd.append(path)
    start = child_cpu_seconds()
    proc = subprocess.run(cmd, cwd=root, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)
    return child_cpu_seconds() - start, proc.returncode


def time_pair(args, root, entry, flags):
    """Best of --repeat runs of capture-lint and of clang++ (interleaved, so
    that load from other work hits both alike)."""
    best_lint = best_clang = float("inf")
    crc = 0
    for _ in range(args.repeat):
        _, _, lint = run_lint(args.binary, root, entry["path"], flags,
                              entry.get("with", []))
        ct, crc = time_clang(root, entry["path"], flags, args.binary)
        for other in entry.get("with", []):
            ct += time_clang(root, other, flags, args.binary)[0]
        best_lint, best_clang = min(best_lint, lint), min(best_clang, ct)
    return best_lint, best_clang, crc


# ---------------------------------------------------------------- known bugs


def check_known_bug(cfg, binary, repo, bug, src_root, update):
    root = os.path.join(src_root, "%s@%s" % (repo["mirror"], bug["commit"][:12]))
    export_tree(cfg, dict(repo, export=bug.get("export", repo["export"])),
                bug["commit"], root, update)
    flags = expand(bug.get("flags", repo["flags"]))
    report, err, _ = run_lint(binary, root, bug["file"], flags,
                              bug.get("with", []))
    if report is None:
        return "error", err
    want = bug["expect"]
    for f in report["findings"]:
        if want.get("check", "*") not in ("*", f["check"]):
            continue
        places = [(f["file"], f["line"])]
        places += [(n["file"], n["line"]) for n in f.get("notes", [])]
        for path, line in places:
            if (rel(root, path) == want["file"]
                    and want["lines"][0] <= line <= want["lines"][1]):
                return "found", "%s:%d %s" % (rel(root, f["file"]),
                                              f["line"], f["check"])
    return "missed", bug["what"]


# ---------------------------------------------------------------- main


def evaluate_repo(cfg, repo, args, verdicts, totals):
    root = os.path.join(args.src, repo["mirror"])
    export_tree(cfg, repo, repo["commit"], root, args.update)
    row = dict(files=0, parsed=0, regions=0, findings=0, true=0, false=0,
               unclear=0, unclassified=0)
    unclassified, problems, inserts, timings = [], [], [], []
    for entry in repo["files"]:
        row["files"] += 1
        flags = file_flags(repo, entry)
        report, err, took = run_lint(args.binary, root, entry["path"], flags,
                                     entry.get("with", []))
        if report is None:
            problems.append("%s: does not parse: %s" % (entry["path"], err))
            continue
        row["parsed"] += 1
        row["regions"] += len(entry.get("regions", []))
        for f in report["findings"]:
            row["findings"] += 1
            key = finding_key(repo["name"], root, f)
            v = verdicts.get(key)
            if args.list:
                verdict = "?" if v is None else {True: "true", False: "false"}.get(
                    v["verdict"], "unclear")
                cause = "" if v is None else v.get("cause", "")
                print("LIST %-7s %-3s %s  %s" % (verdict, cause, key,
                                                f["message"][:120]))
            if v is None:
                row["unclassified"] += 1
                unclassified.append((key, f["message"][:160]))
            else:
                row[{True: "true", False: "false"}.get(v["verdict"],
                                                       "unclear")] += 1
                if v["verdict"] is False:
                    CAUSES[v.get("cause", "?")] += 1
        if args.timing:
            lint, ct, crc = time_pair(args, root, entry, flags)
            timings.append((entry["path"], lint, ct, crc))
        if not args.no_inserts:
            for i, reg in enumerate(entry.get("regions", [])):
                result, why = check_insert(args.binary, root, repo, entry,
                                           reg, i)
                inserts.append((entry["path"], reg["line"], reg["stmt"],
                                result, why))
    bugs = []
    if not args.no_inserts:
        for bug in repo.get("known_bugs", []):
            bugs.append((bug, check_known_bug(cfg, args.binary, repo, bug,
                                              args.src, args.update)))
    for k, v in row.items():
        totals[k] += v
    return row, unclassified, problems, inserts, timings, bugs


def precision(row):
    judged = row["true"] + row["false"]
    return "%.0f%%" % (100.0 * row["true"] / judged) if judged else "-"


COLS = ["files", "parsed", "regions", "findings", "true", "false", "unclear",
        "unclassified"]


def print_row(name, row):
    print("%-12s " % name + " ".join("%8d" % row[c] for c in COLS)
          + " %9s" % precision(row))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("binary", help="the capture-lint binary to evaluate")
    ap.add_argument("--repo", help="only this repository (repos.json name)")
    ap.add_argument("--update", action="store_true",
                    help="export the pinned commits again")
    ap.add_argument("--timing", action="store_true",
                    help="also time clang++-19 -fsyntax-only per file")
    ap.add_argument("--repeat", type=int, default=2,
                    help="timing: best of N runs each (default 2)")
    ap.add_argument("--no-inserts", action="store_true",
                    help="skip the inserted hazards and known bugs")
    ap.add_argument("--src", default=os.environ.get(
        "REALWORLD_SRC", "/work/realworld-src"),
        help="where the exports go (outside this repository)")
    ap.add_argument("--json", help="also write the results to this file")
    ap.add_argument("--list", action="store_true",
                    help="print every finding with its verdict and cause")
    args = ap.parse_args()
    if not os.access(args.binary, os.X_OK):
        fail("'%s' is not an executable capture-lint" % args.binary)
    args.binary = os.path.abspath(args.binary)
    cfg = load_json(os.path.join(HERE, "repos.json"))
    verdicts = load_json(os.path.join(HERE, "verdicts.json"))
    repos = cfg["repos"]
    if args.repo:
        repos = [r for r in repos if r["name"] == args.repo]
        if not repos:
            fail("no repository named '%s' in repos.json" % args.repo)
    totals = {c: 0 for c in COLS}
    results = []
    for repo in repos:
        print("... %s" % repo["name"], file=sys.stderr, flush=True)
        results.append((repo, evaluate_repo(cfg, repo, args, verdicts, totals)))

    print("%-12s " % "repo" + " ".join("%8s" % c[:8] for c in COLS)
          + " %9s" % "precision")
    for repo, (row, *_rest) in results:
        print_row(repo["name"], row)
    print_row("TOTAL", totals)

    if CAUSES:
        print("false findings by root cause (verdicts.json 'cause'): "
              + ", ".join("%s %d" % kv for kv in CAUSES.most_common()))
    found = missed = 0
    for repo, (row, unclassified, problems, inserts, timings, bugs) in results:
        for p in problems:
            print("PARSE %s: %s" % (repo["name"], p))
        for key, msg in unclassified:
            print("UNCLASSIFIED %s  %s" % (key, msg))
    print("\ninserted hazards:")
    for repo, (_, _, _, inserts, _, _) in results:
        for path, line, stmt, result, why in inserts:
            found += result == "found"
            missed += result != "found"
            print("  %-7s %s %s:%d+ %s  (%s)" % (result, repo["name"], path,
                                                 line, stmt, why))
    print("inserted hazards found: %d of %d" % (found, found + missed))
    kfound = ktotal = 0
    print("\nknown bugs (code before the fix):")
    for repo, (_, _, _, _, _, bugs) in results:
        for bug, (result, why) in bugs:
            ktotal += 1
            kfound += result == "found"
            print("  %-7s %s %s@%s  (%s)" % (
                result, repo["name"], bug["file"], bug["commit"][:10], why))
    print("known bugs found: %d of %d" % (kfound, ktotal))
    if args.timing:
        print("\ntiming (CPU seconds, user+sys, capture-lint -j1 vs clang++-19 -fsyntax-only):")
        worst = 0.0
        for repo, (_, _, _, _, timings, _) in results:
            for path, lint, clang, crc in timings:
                ratio = lint / clang if clang > 0 else float("inf")
                worst = max(worst, ratio)
                print("  %-10s %-60s %7.2f %7.2f %6.2fx%s" % (
                    repo["name"], path[-60:], lint, clang, ratio,
                    "" if crc == 0 else "  (clang rc=%d)" % crc))
        print("worst ratio: %.2fx (target <= 1.15x)" % worst)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"totals": totals,
                       "repos": {r["name"]: res[0] for r, res in results}},
                      f, indent=1)


if __name__ == "__main__":
    main()
