"""The insertion plan of one repository: every region discovered in its
analysed files, and the hazards to insert in and below each (issue 23)."""

import collections

import discover
import insert
from common import file_flags, preprocess

Hazard = collections.namedtuple(
    "Hazard", "id file line api stmt depth point where")


class Plan:
    """Regions, hazards and what was left out, for one repository."""

    def __init__(self):
        self.regions = []          # [(entry path, Region)]
        self.hazards = []          # [Hazard]
        self.region_hazards = collections.defaultdict(list)  # rid -> [hid]
        self.inactive = []         # [(file, line, name)]
        self.left_out = []         # [(file, line, why)]
        self.no_point = []         # [(file, line, why)]
        self.elsewhere = collections.Counter()   # file -> begins
        self.errors = []           # [(entry path, text)]
        self.macro_hazards = set()  # hazards in a #define body
        self.roles = {}
        self.scans = {}            # file -> its token scan (discover)
        self.runtime = {}          # rid -> "cuda" or "hip": its API prefix
        self.nccl = set()          # rids whose translation unit has NCCL


def hazard_stmt(flags, group):
    """The obvious hazard for a region: by its API group, else (libtorch)
    by the file's language."""
    if group.startswith("hip"):
        return "hipDeviceSynchronize();"
    if group.startswith("cuda"):
        return "cudaDeviceSynchronize();"
    lang = None
    for i, f in enumerate(flags):
        if f == "-x" and i + 1 < len(flags):
            lang = flags[i + 1]
    return "hipDeviceSynchronize();" if lang == "hip" else \
        "cudaDeviceSynchronize();"


def make_plan(repo, root, binary, apis):
    """Discovers the regions of repo's analysed files (under root) and plans
    the hazards: one after each begin, and a chain of up to three below."""
    plan, index = Plan(), discover.RepoIndex(root, apis)
    index.find_roles()
    plan.roles = {n: sorted("%s %s" % (r.kind, r.group) for r in rs)
                  for n, rs in index.roles.items()}
    seen_regions, points = set(), {}
    analysed = set()
    for entry in repo["files"]:
        flags = file_flags(repo, entry)
        files = [entry["path"]] + entry.get("with", [])
        analysed.update(files)
        active, err, declared = preprocess(
            root, entry["path"], flags, binary, entry.get("with", []),
            names=("ncclAllReduce",))
        if active is None:
            plan.errors.append((entry["path"], "clang -E: " + err))
            continue
        finder = discover.CalleeFinder(index, active)
        # The analysed files, then the export's files they include that
        # mention a begin, an opener or a macro of one.
        files += sorted(f for f in active if f in index.role_files
                        and f not in files)
        analysed.update(files)
        for rel in files:
            plan_file(plan, index, finder, rel, active, flags, seen_regions,
                      points, "ncclAllReduce" in declared)
    count_elsewhere(plan, index, analysed)
    plan.scans = index.scans
    return plan


def region_active(scan, region, active):
    """Whether clang -E kept the begin (its line, or its statement's)."""
    lines = active.get(region.file, set())
    start, _, _ = insert.statement_start(scan, region.index)
    first = scan.toks[start].line if start < len(scan.toks) else region.line
    return any(n in lines for n in range(min(first, region.line),
                                         region.line + 1))


def plan_file(plan, index, finder, rel, active, flags, seen_regions,
              points, has_nccl):
    """Adds one analysed file's regions and hazards to the plan (has_nccl:
    whether its translation unit declares NCCL's collectives)."""
    scan = index.scan(rel)
    regions, left_out = discover.find_regions(index, rel)
    plan.left_out += [(rel, line, why) for line, why in left_out
                      if (rel, line, why) not in plan.left_out]
    for region in regions:
        key = (region.file, region.index)
        if key in seen_regions:
            continue
        seen_regions.add(key)
        if region.kind == "opener-tail" and insert.begin_returns(
                scan, region.index):
            plan.left_out.append((rel, region.line, "%s returns the begin's "
                                  "result: its callers' regions count"
                                  % region.func.qual))
            continue
        if not region_active(scan, region, active):
            plan.inactive.append((rel, region.line, region.name))
            continue
        rid = len(plan.regions)
        plan.regions.append(region)
        stmt = hazard_stmt(flags, region.group)
        plan.runtime[rid] = stmt[:stmt.index("Device")]
        if has_nccl:
            plan.nccl.add(rid)
        if region.kind == "macro-region":
            point = macro_point(index, region)
        else:
            point = insert.after_begin(scan, region)
        targets = []
        if point.why:
            plan.no_point.append((rel, region.line, point.why))
        else:
            targets.append((0, point, "after the begin"))
        chain = finder.chain(scan, region.index, region.end_index,
                             (region.func,)) \
            if region.kind != "macro-region" else []
        for depth, fn in enumerate(chain, 1):
            targets.append((depth, insert.body_start(index.scan(fn.file), fn),
                            fn.qual))
        for depth, pt, where in targets:
            hid = add_hazard(plan, points, pt, stmt, depth, where)
            plan.region_hazards[rid].append(hid)
            if region.kind == "macro-region":
                plan.macro_hazards.add(hid)


def macro_point(index, region):
    """Where the hazard goes for a region a macro use begins: after the
    begin in the #define that holds it."""
    found = discover.macro_begin(index, region.name, region.group)
    if found is None:
        return insert.nowhere(index.scan(region.file), region.index,
                               "no begin found in macro %s" % region.name)
    return insert.in_macro_body(*found)


def add_hazard(plan, points, point, stmt, depth, where):
    """The id of the hazard at point (made once per place)."""
    key = (point.file, point.line, point.col)
    if key not in points:
        hid = len(plan.hazards)
        plan.hazards.append(Hazard(hid, point.file, point.line,
                                   stmt.split("(")[0], stmt, depth, point,
                                   where))
        points[key] = hid
    return points[key]


def count_elsewhere(plan, index, analysed):
    """Begin calls in exported files that no entry analyses (shown so that
    a reader sees what the evaluation leaves out)."""
    for rel, scan in index.scans.items():
        if rel in analysed:
            continue
        for call in scan.calls:
            api = index.apis.get(call.name)
            if api and api[0] == "begin":
                plan.elsewhere[rel] += 1


def edits(plan):
    """{file: [Edit]} that insert every hazard of the plan."""
    out = collections.defaultdict(list)
    for h in plan.hazards:
        for e in insert.edits_for(h.point, h.stmt, h.id):
            out[e.file].append(e)
    return out
