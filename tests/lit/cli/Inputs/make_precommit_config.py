"""Writes a .pre-commit-config.yaml using capture-lint's own hook at the
checkout's HEAD: make_precommit_config.py CAPTURE_LINT_ROOT REPO_DIR"""
import os
import subprocess
import sys

root, repo = sys.argv[1], sys.argv[2]
rev = subprocess.check_output(["git", "-C", root, "rev-parse", "HEAD"],
                              text=True).strip()
with open(os.path.join(repo, ".pre-commit-config.yaml"), "w") as f:
    f.write("repos:\n- repo: %s\n  rev: %s\n  hooks:\n  - id: capture-lint\n"
            % (root, rev))
