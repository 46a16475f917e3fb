"""Recall on one repository: regions recognised, inserted hazards found.

Level 0 inserts a hazard at the start of every region's body; levels 1-3
insert one at the start of the depth-1, -2 and -3 callees of the chain
chains.py picks below each region.  Each level is a separate copy and a
separate capture-lint run: capture-lint reports the first hazard a call
reaches, so a hazard at depth 1 would hide the ones below it.
"""

import os

from .chains import ChainFinder
from .inject import hazard_after, hazard_before, hazard_lambda, write_copy
from .lint import run_lint
from .project import dotted_name
from .hints import hazard_hint
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
        if r.lam is not None:
            h, closer = hazard_lambda(r.lam, rel)
            h.closer = closer
        elif r.after is not None:
            h = hazard_after(r.after, rel)
        else:
            h = hazard_before(r.body[0], rel)
        r.hazard = levels[0].setdefault(h.anchor(), h)
        r.hazard.roles.append((r.key(), 0, r.kind))
        caller, parent = r.ctx, r.hazard
        for depth, t in enumerate(finder.for_region(r), start=1):
            func = t.funcs[-1]
            h = hazard_before(func.body[0], t.mod.rel)
            h = levels[depth].setdefault(h.anchor(), h)
            h.roles.append((r.key(), depth, qualname(t)))
            if not hasattr(h, "hint"):
                h.hint = hazard_hint(project, caller, t)
                h.parent = parent
            caller, parent = t, h
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


def run_levels(binary, project, src, work, levels, regions, log):
    """Runs every level that has hazards, then each hazard missed there on
    its own (capture-lint reports one hazard of an API per call in a region,
    so one hazard may hide another of the same level under the same call).
    Marks hazard.found (hazard.alone when found only on its own) and
    region.recognised."""
    region_files = {r.rel for r in regions}
    starts = set()
    for d in LEVELS:
        hazards = list(levels[d].values())
        for h in hazards:
            h.found, h.alone, h.broken = False, False, False
        if not hazards:
            continue
        dest = os.path.join(work, "level%d" % d)
        maps, broken = write_copy(project, src, dest, hazards, region_files)
        result = run_lint(binary, dest, ["."], dest + ".json")
        index = location_index(result)
        for h in broken:
            h.broken = True
        for h in hazards:
            h.found = not h.broken and is_found(index, h)
        if d == 0:
            starts |= region_starts(result, maps)
        missed = [h for h in hazards if not h.found and not h.broken]
        log("  level %d: %d hazards, %d missed, %.1f s" % (
            d, len(hazards), len(missed), result.seconds))
        for h in missed:
            res, hmaps = run_alone(binary, project, src, work, h,
                                   region_files)
            h.found = h.alone = is_found(location_index(res), h)
            if d == 0:
                starts |= region_starts(res, hmaps)
    for r in regions:
        r.recognised = bool(r.accept & starts)


def run_alone(binary, project, src, work, h, region_files):
    """capture-lint on a copy with this one hazard; (result, line maps)."""
    dest = os.path.join(work, "alone")
    maps, _broken = write_copy(project, src, dest, [h], region_files)
    return run_lint(binary, dest, ["."], dest + ".json"), maps
