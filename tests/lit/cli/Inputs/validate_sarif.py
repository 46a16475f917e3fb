"""Validates a SARIF file against the SARIF 2.1.0 schema and checks rules."""
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
jsonschema.validate(doc, schema)
run = doc["runs"][0]
rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
for check in ("capture-sync-call", "capture-host-read", "capture-allocation",
              "capture-shape-branch", "capture-legacy-stream",
              "capture-unended-region"):
    assert check in rules, check
for res in run["results"]:
    assert res["ruleId"] in rules
    assert rules[res["ruleIndex"]] == res["ruleId"]
print("sarif ok: %d results, %d rules" % (len(run["results"]), len(rules)))
