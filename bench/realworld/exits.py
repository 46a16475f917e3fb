"""Inserted early exits (issue 28, capture-unended-on-error): after each
region's begin, a throw the analysis cannot rule out,

    if (!__builtin_return_address(0)) throw 0;

in a scratch copy of its own (a throw in the copy with the other inserted
hazards would change what they measure). An exit counts as found when a
capture-unended-on-error finding is at its line or has a note there. The
check is rightly silent for some regions (a begin in main, an opener's own
tail, a RAII guard, a region no path of its function ends): the misses are
listed with the region's kind and function so that a reader judges them.
C files get none (no throw in C)."""

import os
import shutil

import evaluate
import insert

EXIT_STMT = "if (!__builtin_return_address(0)) throw 0;"
CHECK = "capture-unended-on-error"


def planned(plan):
    """[(region id, point)]: the point after each region's begin, where its
    depth-0 hazard goes (not in a #define body, not in a C file)."""
    out = []
    for rid, hids in sorted(plan.region_hazards.items()):
        region = plan.regions[rid]
        if region.kind == "macro-region" or region.file.endswith(".c"):
            continue
        for hid in hids:
            h = plan.hazards[hid]
            if h.depth == 0 and hid not in plan.macro_hazards:
                out.append((rid, h.point))
                break
    return out


def run(args, repo, root, plan):
    """Runs the repository with every planned exit inserted; returns
    ([(region id, file, line)], {region id: how found}, [(entry, error)])."""
    return run_inserted(args, repo, root,
                        [(rid, point, EXIT_STMT) for rid, point in
                         planned(plan)], CHECK, "exits")


def run_inserted(args, repo, root, insertions, check, tag):
    """Runs the repository in a scratch copy with each (region id, point,
    statement) of insertions inserted; a region's insertion counts as found
    when a finding of check is at its line or has a note there. Returns
    ([(region id, file, line)], {region id: how found}, [(entry, error)])."""
    return run_marked(args, repo, root, [
        (rid, check, insert.edits_for(point, stmt, rid))
        for rid, point, stmt in insertions], tag)


def run_marked(args, repo, root, items, tag):
    """Runs the repository in a scratch copy with the edits of each (key,
    check, [Edit]) of items applied; the edit whose kind is the key marks
    the line where a finding of check (or one of its notes) counts as
    finding it. Returns ([(key, file, line)], {key: how found},
    [(entry, error)])."""
    if not items:
        return [], {}, []
    scratch = os.path.join(args.src, ".scratch-%s-%d" % (tag, os.getpid()),
                           repo["mirror"])
    insert.scratch_copy(root, scratch)
    where = {}
    try:
        edits = {}
        for _, _, item_edits in items:
            for e in item_edits:
                edits.setdefault(e.file, []).append(e)
        for path, file_edits in edits.items():
            where.update(insert.apply_edits(os.path.join(scratch, path),
                                            file_edits))
        results = evaluate.run_entries(args, scratch, repo, repo["files"])
    finally:
        shutil.rmtree(os.path.dirname(scratch), ignore_errors=True)
    marks = {key: next(e.file for e in item_edits if e.kind == key)
             for key, _, item_edits in items}
    at = {(marks[key], where[key][0], check): key
          for key, check, _ in items if key in where}
    found, errors = {}, []
    for path, (report, err, _) in sorted(results.items()):
        if report is None:
            errors.append((path, err))
            continue
        for f in report["findings"]:
            f = evaluate.relative_finding(scratch, f)
            places = [(f["file"], f["line"], "at the insertion")]
            places += [(n["file"], n["line"], "a note at the insertion")
                       for n in f["notes"]]
            for file, line, how in places:
                key = at.get((file, line, f["check"]))
                if key is not None:
                    found.setdefault(key, how)
    placed = [(key, marks[key], where[key][0]) for key, _, _ in items
              if key in where]
    return placed, found, errors


def missed_text(plan, placed, found):
    """One line per exit not found: where, the region's kind and function."""
    out = []
    for rid, file, line in placed:
        if rid in found:
            continue
        r = plan.regions[rid]
        out.append("%s:%d (%s region in %s)" % (file, line, r.kind,
                                               r.func.qual if r.func else "?"))
    return out
