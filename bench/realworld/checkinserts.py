"""Inserted hazards of the newest checks (issue 28), in one scratch copy of
their own (they do not change what one another measure). Each counts as
found when a finding of its own check is at its line or has a note there:

  host-update      capture-host-side-effect: after each region's begin,
                   { static int cl_updates = 0; ++cl_updates; }
  dangling-local   capture-dangling-buffer: after the begin, a local array
                   given to a captured memset and dead at the end of its
                   block,
                   { char cl_buf[16]; cudaMemsetAsync(cl_buf, 0, 16, S); }
  uneven-collective  capture-collective, where the translation unit
                   declares NCCL: an all-reduce that rank 0 alone captures,
                   { int cl_rank = 0; if (cl_rank == 0)
                     ncclAllReduce(0, 0, 0, ncclFloat, ncclSum, 0, S); }
  unchecked-end    capture-unchecked-end: the check macro around a region's
                   end call, `CHECK(cudaStreamEndCapture(s, &g), "");`,
                   blanked out (same columns), so the status is discarded.

S is the begin's stream argument as written, else 0; the hip* names in a
HIP region. dangling-local is rightly silent where the graph is neither
kept beyond the function nor launched later in it (a graph captured and
dropped): misses are listed with the region so that a reader judges them.
"""

import exits
import forks
import insert

KINDS = {
    "host-update": "capture-host-side-effect",
    "dangling-local": "capture-dangling-buffer",
    "uneven-collective": "capture-collective",
    "unchecked-end": "capture-unchecked-end",
}
STATEMENTS = {
    "host-update": "{ static int cl_updates = 0; ++cl_updates; }",
    "dangling-local": "{ char cl_buf[16]; "
                      "%(p)sMemsetAsync(cl_buf, 0, 16, %(s)s); }",
    "uneven-collective": "{ int cl_rank = 0; if (cl_rank == 0) "
                         "ncclAllReduce(0, 0, 0, ncclFloat, ncclSum, 0, "
                         "%(s)s); }",
}
STATUS_ENDS = ("cudaStreamEndCapture", "hipStreamEndCapture",
               "cuStreamEndCapture")


def planned(plan):
    """[((region id, kind), check, [Edit])]: every insertion of the run."""
    out = []
    for rid, point in exits.planned(plan):
        region = plan.regions[rid]
        values = {"p": plan.runtime.get(rid, "cuda"),
                  "s": (forks.stream_argument(plan, region)
                        if region.kind == "begin" else None) or "0"}
        kinds = ["host-update", "dangling-local"]
        if rid in plan.nccl:
            kinds.append("uneven-collective")
        for kind in kinds:
            key = (rid, kind)
            out.append((key, KINDS[kind], insert.edits_for(
                point, STATEMENTS[kind] % values, key)))
        edits = unchecked_end(plan, rid)
        if edits:
            out.append(((rid, "unchecked-end"), KINDS["unchecked-end"],
                        edits))
    return out


def unchecked_end(plan, rid):
    """The Edits that blank the check macro around region rid's end call
    (`NAME(cudaStreamEndCapture(...), ...)` starting its statement, the end
    its first argument: what is left discards the status), adding the `;` a macro statement may lack; [] where the
    end is written in another shape."""
    region = plan.regions[rid]
    scan = plan.scans.get(region.file)
    if (scan is None or region.kind != "begin"
            or region.end_index == region.func.close):
        return []
    toks, pairs, i = scan.toks, scan.pairs, region.end_index
    if (toks[i].text not in STATUS_ENDS or i < 2 or toks[i - 1].text != "("
            or toks[i + 1].text != "(" or i + 1 not in pairs
            or i - 1 not in pairs):
        return []
    name, close = toks[i - 2], pairs[i - 1]
    if (name.kind != "ident" or not insert.macro_like(scan, name.text)
            or toks[pairs[i + 1] + 1].text not in (")", ",")
            or insert.statement_start(scan, i - 2)[0] != i - 2):
        return []
    key = (rid, "unchecked-end")
    edits = [insert.Edit(region.file, name.line, name.col - 1,
                         " " * len(name.text), None, len(name.text)),
             insert.Edit(region.file, toks[i].line, toks[i].col - 1, "", key)]
    if close + 1 >= len(toks) or toks[close + 1].text != ";":
        edits.append(insert.Edit(region.file, toks[close].line,
                                 toks[close].col, ";", None))
    return edits


def run(args, repo, root, plan):
    """Runs the repository with every planned insertion; returns
    ([((region id, kind), file, line)], {(region id, kind): how found},
    [(entry, error)])."""
    return exits.run_marked(args, repo, root, planned(plan), "checks")


def missed_text(plan, placed, found):
    """One line per insertion not found: its kind, where, the region."""
    out = []
    for (rid, kind), file, line in placed:
        if (rid, kind) in found:
            continue
        r = plan.regions[rid]
        out.append("%s %s:%d (%s region at %s:%d in %s)" % (
            kind, file, line, r.kind, r.file, r.line,
            r.func.qual if r.func else "?"))
    return out
