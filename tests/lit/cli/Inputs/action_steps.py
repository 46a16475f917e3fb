"""Checks the composite action (action.yml at the repository root): it
parses as YAML, is a composite action whose every input has a description,
every `${{ inputs.X }}` names a declared input, and every `run:` script is
valid bash once its `${{ ... }}` expressions are replaced by a word. Prints
one line per step.

  action_steps.py action.yml
"""
import re
import subprocess
import sys

import yaml

doc = yaml.safe_load(open(sys.argv[1]))
if doc["runs"]["using"] != "composite":
    sys.exit("not a composite action")
inputs = doc["inputs"]
for name, spec in inputs.items():
    if not spec.get("description"):
        sys.exit("input %s has no description" % name)
text = open(sys.argv[1]).read()
for used in re.findall(r"inputs\.([A-Za-z0-9_-]+)", text):
    if used not in inputs:
        sys.exit("inputs.%s is used but not declared" % used)
for step in doc["runs"]["steps"]:
    kind = "uses " + step["uses"] if "uses" in step else "run"
    if "run" in step:
        if step.get("shell") != "bash":
            sys.exit("step %r has no shell: bash" % step["name"])
        script = re.sub(r"\$\{\{[^}]*\}\}", "WORD", step["run"])
        check = subprocess.run(["bash", "-n"], input=script.encode(),
                               capture_output=True)
        if check.returncode:
            sys.exit("step %r: %s" % (step["name"], check.stderr.decode()))
    print("step: %s: %s" % (step["name"], kind))
