"""Recall on one repository: regions recognised, inserted hazards found.

Level 0 inserts a hazard at the start of every region's body; levels 1-3
insert one at the start of the depth-1, -2 and -3 callees of the chain
chains.py picks below each region.  Each level is a separate copy and a
separate capture-lint run: capture-lint reports the first hazard a call
reaches, so a hazard at depth 1 would hide the ones below it.
"""

import os

from .chains import ChainFinder
from .inject import hazard_after, hazard_before, write_copy
from .lint import run_lint
from .project import dotted_name
from .regions import qualname

LEVELS = (0, 1, 2, 3)


def plan(project, regions):
    """{level: {anchor: Hazard}} for the regions, each hazard with its
    roles; sets region.hazard to its level-0 hazard (or None)."""
    finder = ChainFinder(project)
    levels = {d: {} for d in LEVELS}
    for r in regions:
        r.hazard = None
        if not r.located():
            continue
        rel = r.ctx.mod.rel
        h = hazard_after(r.after, rel) if r.after is not None \
            else hazard_before(r.body[0], rel)
        r.hazard = levels[0].setdefault(h.anchor(), h)
        r.hazard.roles.append((r.key(), 0, r.kind))
        for depth, t in enumerate(finder.for_region(r), start=1):
            func = t.funcs[-1]
            h = hazard_before(func.body[0], t.mod.rel)
            h = levels[depth].setdefault(h.anchor(), h)
            h.roles.append((r.key(), depth, qualname(t)))
            h.decorators = [dotted_name(getattr(d, "func", d)) or "?"
                            for d in func.decorator_list]
    return levels


def location_index(result):
    """{(file, line): [(column, text)]} of every finding and note."""
    index = {}
    for f in result.findings:
        index.setdefault((f["file"], f["line"]), []).append(
            (f["column"], f.get("api", "") + " " + f["message"]))
        for n in f.get("notes", []):
            index.setdefault((n["file"], n["line"]), []).append(
                (n["column"], n["message"]))
    return index


def is_found(index, h):
    """Whether a finding or note sits at the inserted call."""
    for col, text in index.get((h.rel, h.new_line), []):
        if col == h.new_col or "synchronize" in text:
            return True
    return False


def region_starts(result, maps):
    """(file, original line) of every finding's region."""
    out = set()
    for f in result.findings:
        reg = f.get("region")
        if not reg:
            continue
        line = reg["begin_line"]
        lmap = maps.get(reg["file"])
        out.add((reg["file"], lmap.original(line) if lmap else line))
    return out


def run_levels(binary, project, src, work, levels, log):
    """Runs every level that has hazards; returns {level: (result, maps,
    broken)}."""
    out = {}
    for d in LEVELS:
        hazards = list(levels[d].values())
        if not hazards:
            continue
        dest = os.path.join(work, "level%d" % d)
        maps, broken = write_copy(project, src, dest, hazards)
        result = run_lint(binary, dest, ["."], dest + ".json")
        log("  level %d: %d hazards, %.1f s" % (d, len(hazards),
                                               result.seconds))
        out[d] = (result, maps, broken)
    return out


def score(regions, levels, runs):
    """Recognised regions and found hazards; marks region.recognised and
    hazard.found."""
    starts = set()
    if 0 in runs:
        starts = region_starts(runs[0][0], runs[0][1])
    for r in regions:
        r.recognised = bool(r.accept & starts)
    for d, hazards in levels.items():
        if d not in runs:
            continue
        result, _maps, broken = runs[d]
        index = location_index(result)
        broken_ids = {id(h) for h in broken}
        for h in hazards.values():
            h.broken = id(h) in broken_ids
            h.found = (not h.broken) and is_found(index, h)
