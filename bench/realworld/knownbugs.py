"""Known bugs: code as it was before a project fixed a capture bug,
exported beside the current code; found when a finding (or one of its
notes) is at a line the fix changed."""

import os

from common import expand, export_tree, rel, run_lint


def check_known_bug(cfg, binary, repo, bug, src_root, update):
    """Runs the code before a project's fix; ("found"|"missed"|"error",
    why)."""
    root = os.path.join(src_root, "%s@%s" % (repo["mirror"], bug["commit"][:12]))
    old = {k: bug.get(k, repo.get(k, [])) for k in ("export", "generate",
                                                    "deps")}
    export_tree(cfg, dict(repo, **old), bug["commit"], root, update)
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
