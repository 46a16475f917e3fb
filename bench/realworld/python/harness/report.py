"""The per-repository figures, their printing, and the baseline gate."""

import json

from .evaluate import LEVELS
from .hints import region_hint


def repo_stats(project, regions, levels, pristine):
    """The counts and the lists of misses of one repository."""
    located = [r for r in regions if r.located()]
    stats = {
        "files": len(project.rels),
        "unparsed": len(project.unparsed),
        "regions": len(regions),
        "located": len(located),
        "recognised": sum(1 for r in located if r.recognised),
        "inserted": {}, "found": {},
        "findings": len(pristine.counted()),
        "remarks": len(pristine.remarks()),
        "lint_errors": len(pristine.errors),
    }
    missed, notes = [], {}
    for d in LEVELS:
        hs = list(levels[d].values())
        stats["inserted"][str(d)] = len(hs)
        stats["found"][str(d)] = sum(1 for h in hs if getattr(h, "found", 0))
        stats.setdefault("alone", {})[str(d)] = sum(
            1 for h in hs if getattr(h, "alone", 0))
        for h in hs:
            if not getattr(h, "found", 0):
                missed.append(hazard_key(h, d))
                if hazard_notes(h, d):
                    notes[hazard_key(h, d)] = hazard_notes(h, d)
    stats["unrecognised"] = sorted(r.key() for r in located
                                   if not r.recognised)
    stats["hints"] = {r.key(): region_hint(project, r) for r in located
                      if not r.recognised and region_hint(project, r)}
    stats["unlocated"] = sorted(r.key() for r in regions if not r.located())
    stats["missed"] = sorted(missed)
    stats["notes"] = notes
    return stats


def hazard_key(h, depth):
    """A missed hazard's identity: where, depth, callee and region."""
    region, _d, name = h.roles[0]
    if depth == 0:
        return "%s:%d d0 (%s)" % (h.rel, h.line, region)
    extra = " +%d more" % (len(h.roles) - 1) if len(h.roles) > 1 else ""
    return "%s:%d d%d %s (from %s%s)" % (h.rel, h.line, depth, name, region,
                                         extra)


def hazard_notes(h, depth):
    """What is worth knowing about a missed hazard: decorators, an insertion
    that does not parse, hints at the cause."""
    deco = getattr(h, "decorators", [])
    note = " [decorated @%s]" % ",@".join(deco) if deco else ""
    if getattr(h, "broken", False):
        note += " [insertion does not parse]"
    hint = getattr(h, "hint", "")
    parent = getattr(h, "parent", None)
    if parent is not None and not getattr(parent, "found", True):
        hint = "; ".join(x for x in (hint, "the call above it is not reached"
                                     if depth > 1 else
                                     "its region is not recognised") if x)
    if hint:
        note += " [hint: %s]" % hint
    return note


def found_cell(stats, d):
    """`found/inserted` at one depth."""
    return "%d/%d" % (stats["found"][str(d)], stats["inserted"][str(d)])


def print_table(all_stats, out):
    """The per-repository table, then the totals."""
    head = ("| repository | files | regions | located | recognised | d0 | d1 "
            "| d2 | d3 | findings | remarks |")
    out(head)
    out("|" + "---|" * 11)
    tot = {"files": 0, "regions": 0, "located": 0, "recognised": 0,
           "findings": 0, "remarks": 0,
           "inserted": {str(d): 0 for d in LEVELS},
           "found": {str(d): 0 for d in LEVELS}}
    for repo, s in all_stats.items():
        out("| %s | %d | %d | %d | %d | %s | %s | %s | %s | %d | %d |" % (
            repo, s["files"], s["regions"], s["located"], s["recognised"],
            found_cell(s, 0), found_cell(s, 1), found_cell(s, 2),
            found_cell(s, 3), s["findings"], s["remarks"]))
        for k in ("files", "regions", "located", "recognised", "findings",
                  "remarks"):
            tot[k] += s[k]
        for d in LEVELS:
            tot["inserted"][str(d)] += s["inserted"][str(d)]
            tot["found"][str(d)] += s["found"][str(d)]
    out("| **all** | %d | %d | %d | %d | %s | %s | %s | %s | %d | %d |" % (
        tot["files"], tot["regions"], tot["located"], tot["recognised"],
        found_cell(tot, 0), found_cell(tot, 1), found_cell(tot, 2),
        found_cell(tot, 3), tot["findings"], tot["remarks"]))
    return tot


def print_misses(repo, s, out):
    """Every region not recognised, not located, and hazard not found."""
    for title, key in (("region not recognised", "unrecognised"),
                       ("region body not located", "unlocated"),
                       ("hazard not found", "missed")):
        for item in s[key]:
            out("%s: %s: %s%s" % (repo, title, item, item_notes(s, key,
                                                               item)))
    for v in s.get("shapes", {}).values():
        for item in v["missed"]:
            out("%s: shape hazard not found: %s" % (repo, item))


def print_shapes(all_stats, out):
    """Found/inserted per call shape and hazard kind, over every
    repository."""
    tot = {}
    for s in all_stats.values():
        for name, v in s.get("shapes", {}).items():
            t = tot.setdefault(name, [0, 0, 0])
            t[0] += v["found"]
            t[1] += v["inserted"]
            t[2] += 1 if v["inserted"] else 0
    if not tot:
        return
    out("| call shape / hazard kind | found | inserted | recall | repositories |")
    out("|---|---|---|---|---|")
    for name, (f, i, n) in tot.items():
        out("| %s | %d | %d | %s | %d |" % (
            name, f, i, "%.0f%%" % (100.0 * f / i) if i else "-", n))
    f = sum(t[0] for t in tot.values())
    i = sum(t[1] for t in tot.values())
    out("| **all** | %d | %d | %s | |" % (
        f, i, "%.0f%%" % (100.0 * f / i) if i else "-"))


def item_notes(s, key, item):
    """The hints and notes printed after a missed item."""
    if key == "unrecognised" and s.get("hints", {}).get(item):
        return " [hint: %s]" % s["hints"][item]
    if key == "missed":
        return s.get("notes", {}).get(item, "")
    return ""


COUNTS = ("files", "regions", "located", "recognised", "findings", "remarks")
GATED = ("recognised",)


def compare(baseline, current, configs_base, configs_cur, out):
    """Prints every difference from the baseline; returns True when the
    gate fails (recognised regions or found hazards dropped, or an item
    newly missed while discovery is unchanged)."""
    failed = False
    for repo in sorted(set(baseline) | set(current)):
        b, c = baseline.get(repo), current.get(repo)
        if b is None or c is None:
            out("%s: %s" % (repo, "not in the baseline" if b is None
                            else "in the baseline, not run"))
            failed |= c is None
            continue
        failed |= compare_repo(repo, b, c, out)
    for name in sorted(set(configs_base) | set(configs_cur)):
        b, c = configs_base.get(name, {}), configs_cur.get(name, {})
        for k in sorted(set(b) | set(c)):
            if b.get(k) != c.get(k):
                out("%s: %s %s -> %s" % (name, k, b.get(k), c.get(k)))
    return failed


def compare_repo(repo, b, c, out):
    """compare() for one repository."""
    failed = False
    for k in COUNTS:
        if b.get(k) != c.get(k):
            drop = k in GATED and c.get(k, 0) < b.get(k, 0)
            failed |= drop
            out("%s: %s %s -> %s%s" % (repo, k, b.get(k), c.get(k),
                                       "  (DROP)" if drop else ""))
    for d in map(str, LEVELS):
        for k in ("inserted", "found"):
            bv, cv = b[k].get(d, 0), c[k].get(d, 0)
            if bv != cv:
                drop = k == "found" and cv < bv
                failed |= drop
                out("%s: %s at depth %s %d -> %d%s" % (
                    repo, k, d, bv, cv, "  (DROP)" if drop else ""))
    if "shapes" in c:  # not with --no-shapes
        failed |= compare_shapes(repo, b.get("shapes", {}), c["shapes"], out)
    same = all(b.get(k) == c.get(k) for k in ("regions", "located")) and \
        b["inserted"] == c["inserted"]
    for key in ("unrecognised", "missed", "unlocated"):
        new = sorted(set(c[key]) - set(b[key]))
        gone = sorted(set(b[key]) - set(c[key]))
        for item in new:
            out("%s: newly %s: %s%s" % (repo, key, item,
                                        item_notes(c, key, item)))
            failed |= same and key != "unlocated"
        for item in gone:
            out("%s: no longer %s: %s" % (repo, key, item))
    return failed


def compare_shapes(repo, b, c, out):
    """Differences per call shape and hazard kind; True on a drop (fewer
    found, or a region newly missed with the same insertions)."""
    failed = False
    for name in sorted(set(b) | set(c)):
        bv = b.get(name, {"found": 0, "inserted": 0, "missed": []})
        cv = c.get(name, {"found": 0, "inserted": 0, "missed": []})
        for k in ("inserted", "found"):
            if bv[k] != cv[k]:
                drop = k == "found" and cv[k] < bv[k]
                failed |= drop
                out("%s: %s %s %d -> %d%s" % (repo, name, k, bv[k], cv[k],
                                              "  (DROP)" if drop else ""))
        if bv["inserted"] == cv["inserted"]:
            for item in sorted(set(cv["missed"]) - set(bv["missed"])):
                out("%s: newly missed: %s" % (repo, item))
                failed = True
    return failed


def load_baseline(path):
    """The baseline document, or an empty one."""
    try:
        with open(path) as f:
            return json.load(f)
    except OSError:
        return {"repos": {}, "configs": {}}


def write_baseline(path, meta, repos, configs):
    """Writes the baseline document."""
    with open(path, "w") as f:
        json.dump({"note": meta, "repos": repos, "configs": configs}, f,
                  indent=1, sort_keys=True)
        f.write("\n")
