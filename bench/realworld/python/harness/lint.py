"""Exporting a pinned commit's .py files and running capture-lint."""

import json
import os
import shutil
import subprocess
import sys
import time


def fail(msg):
    """Prints an error and exits with status 2."""
    print("run.py: error: " + msg, file=sys.stderr)
    sys.exit(2)


def export(mirror, commit, dest):
    """Exports the .py files of commit from a bare mirror into dest (once
    per commit: a stamp file records it)."""
    stamp = os.path.join(dest, ".exported-" + commit)
    if os.path.exists(stamp):
        return
    if not os.path.isdir(mirror):
        fail("no mirror at %s: fetch it with the fetch tool" % mirror)
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    os.makedirs(dest)
    # Mirrors may lack large blobs; git names them on stderr and the .py
    # files still come out.
    archive = subprocess.run(
        ["git", "-C", mirror, "archive", commit, "--", ":(glob)**/*.py"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if not archive.stdout:
        fail("git archive of %s at %s failed: %s"
             % (mirror, commit, archive.stderr.decode()[:400]))
    subprocess.run(["tar", "-x", "-C", dest], input=archive.stdout,
                   check=True)
    open(stamp, "w").close()


class LintResult:
    """capture-lint's JSON document for one run, with paths made relative
    to the analysed root."""

    def __init__(self, doc, root, seconds, status, stderr):
        self.seconds = seconds
        self.status = status
        self.stderr = stderr
        self.findings = doc.get("findings", [])
        self.errors = doc.get("errors", [])
        self.warnings = doc.get("warnings", [])
        self.files = doc.get("summary", {}).get("files", 0)
        for f in self.findings:
            f["file"] = relative(f["file"], root)
            if f.get("region"):
                f["region"]["file"] = relative(f["region"]["file"], root)
            for n in f.get("notes", []):
                n["file"] = relative(n["file"], root)
        for e in self.errors:
            e["file"] = relative(e.get("file", ""), root)

    def counted(self):
        """Findings that fail a run (errors and warnings, not remarks)."""
        return [f for f in self.findings if f["severity"] != "remark"]

    def remarks(self):
        """Findings of severity remark."""
        return [f for f in self.findings if f["severity"] == "remark"]


def relative(path, root):
    """path relative to root when it is under it."""
    root = os.path.realpath(root)
    real = os.path.realpath(path) if path else path
    if real and real.startswith(root + os.sep):
        return real[len(root) + 1:]
    return path


def run_lint(binary, root, targets, out_json, extra=(), tail=()):
    """Runs capture-lint --report-only --format=json on targets (paths
    relative to root; \p tail after them, such as `-- FLAGS` for a C++
    target) and returns a LintResult."""
    cmd = [binary, "--report-only", "--format=json", "-o", out_json]
    cmd += list(extra) + [os.path.join(root, t) for t in targets] + list(tail)
    start = time.monotonic()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    seconds = time.monotonic() - start
    try:
        with open(out_json) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        fail("capture-lint gave no JSON for %s (status %d): %s\n%s"
             % (root, proc.returncode, e, proc.stderr.decode()[-2000:]))
    return LintResult(doc, root, seconds, proc.returncode,
                      proc.stderr.decode(errors="replace"))
