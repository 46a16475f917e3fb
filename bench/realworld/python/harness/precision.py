"""Verdicts over the findings of the unmodified trees (verdicts.json).

Each finding (errors, warnings and remarks alike) is keyed
`repo|file|line|check|at` (files relative to the export root; repo as in
repos.txt, or `owner/name+config` for the configured runs; `at` is where
the hazard itself is, see finding_key) and classified
{"verdict": true | false | "unclear", "reason": "..."} with
/work/shared/notes/capture-rules.md as the source of truth.
"""

import json


def finding_key(repo, f):
    """The verdict key of a finding: `repo|file|line|check|at`, where `at`
    is where the hazard itself is (`file:line` of the innermost note that is
    not the region's begin note; the finding's own place when it is in the
    region's body), so that two findings of one call are told apart."""
    reg = f.get("region") or {}
    inner = [n for n in f.get("notes", [])
             if not (n["file"] == reg.get("file")
                     and n["line"] == reg.get("begin_line"))
             and not n["message"].startswith("the path to it is taken")]
    at = inner[-1] if inner else f
    return "%s|%s|%d|%s|%s:%d" % (repo, f["file"], f["line"], f["check"],
                                  at["file"], at["line"])


def load_verdicts(path):
    """The verdicts document ({} when absent)."""
    try:
        with open(path) as f:
            return json.load(f)
    except OSError:
        return {}


def classify(sets, verdicts):
    """Counts per severity class ('finding' = error/warning, 'remark') of
    true/false/unclear/unclassified, and the unclassified findings."""
    counts = {c: {"true": 0, "false": 0, "unclear": 0, "unclassified": 0}
              for c in ("finding", "remark")}
    unclassified = []
    for repo, findings in sets:
        for f in findings:
            cls = "remark" if f["severity"] == "remark" else "finding"
            key = finding_key(repo, f)
            v = verdicts.get(key)
            if v is None:
                counts[cls]["unclassified"] += 1
                unclassified.append((key, f))
            else:
                verdict = v["verdict"]
                name = {True: "true", False: "false"}.get(verdict, "unclear")
                counts[cls][name] += 1
    return counts, unclassified


def precision(c):
    """true / (true + false), or None."""
    judged = c["true"] + c["false"]
    return c["true"] / judged if judged else None


def print_precision(counts, unclassified, out):
    """The precision table and every unclassified finding."""
    out("| class | true | false | unclear | unclassified | precision |")
    out("|---|---|---|---|---|---|")
    for cls, c in counts.items():
        p = precision(c)
        out("| %s | %d | %d | %d | %d | %s |" % (
            cls + "s", c["true"], c["false"], c["unclear"], c["unclassified"],
            "%.0f%%" % (100 * p) if p is not None else "-"))
    for key, f in unclassified:
        out("unclassified: %s [%s] %s" % (key, f["severity"],
                                          f["message"][:160]))
