"""The configured runs run.sh made: lmdeploy's model forwards declared
captured (a catalog generated from its *ForCausalLM classes), and NeMo and
lmdeploy with what their engines fix for graphs stated (assume-*.json)."""

import glob
import json
import os
import re

from .lint import run_lint

LMDEPLOY = "InternLM/lmdeploy"
NEMO = "NVIDIA/NeMo"


def captured_catalog(lmd_src, path):
    """Writes the catalog that declares lmdeploy's model forwards captured."""
    names = set()
    for f in glob.glob(lmd_src + "/lmdeploy/pytorch/models/*.py"):
        with open(f, encoding="utf-8", errors="replace") as fh:
            for m in re.finditer(r"^class (\w+ForCausalLM)\b", fh.read(),
                                 re.M):
                names.add(m.group(1) + ".forward")
    doc = {"family": "bench-lmdeploy", "functions": [
        {"name": n, "role": "captured",
         "source": "lmdeploy's CUDA graph runner captures the model's forward"}
        for n in sorted(names)]}
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)


def config_runs(here, srcs):
    """(name, repo source root, target, catalogs) of the configured runs
    whose repositories are in srcs ({repo: export root})."""
    runs = []
    lmd, nemo = srcs.get(LMDEPLOY), srcs.get(NEMO)
    models = "lmdeploy/pytorch/models"
    cap = os.path.join(os.path.dirname(lmd or "."), "lmdeploy-captured.json")
    if lmd:
        captured_catalog(lmd, cap)
        runs.append((LMDEPLOY + "+captured", lmd, models, [cap]))
    if nemo:
        runs.append((NEMO + "+assume", nemo, ".",
                     [os.path.join(here, "assume-nemo.json")]))
    if lmd:
        assume = os.path.join(here, "assume-lmdeploy.json")
        runs.append((LMDEPLOY + "+assume", lmd, ".", [assume]))
        runs.append((LMDEPLOY + "+captured+assume", lmd, models,
                     [cap, assume]))
    return runs


def run_configs(binary, here, srcs, out_dir, log):
    """Runs the configured runs; returns {name: (repo root, LintResult)}."""
    results = {}
    for name, root, target, catalogs in config_runs(here, srcs):
        out_json = os.path.join(out_dir, name.replace("/", "+") + ".json")
        extra = ["--catalog=" + c for c in catalogs]
        res = run_lint(binary, root, [target], out_json, extra)
        log("%s: %d files, %d findings, %d remarks (%.1f s)" % (
            name, res.files, len(res.counted()), len(res.remarks()),
            res.seconds))
        results[name] = res
    return results
