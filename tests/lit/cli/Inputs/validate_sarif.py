"""Validates a SARIF file against the SARIF 2.1.0 schema and checks what
GitHub code scanning uses: rules with descriptions, markdown help, a default
level and tags; results with stable partialFingerprints, URIs relative to
%SRCROOT% (declared in originalUriBaseIds) and, where there are notes, a
codeFlow from the region down to the hazard."""
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
jsonschema.validate(doc, schema)
run = doc["runs"][0]
rules = run["tool"]["driver"]["rules"]
ids = [r["id"] for r in rules]
for check in ("capture-sync-call", "capture-host-read", "capture-allocation",
              "capture-shape-branch", "capture-legacy-stream",
              "capture-unended-region", "capture-frozen-host-value"):
    assert check in ids, check
for r in rules:
    if r["id"] == "capture-probe-missed":
        continue
    assert r["fullDescription"]["text"].startswith(r["shortDescription"]["text"]), r["id"]
    assert "**Fix.**" in r["help"]["markdown"], r["id"]
    assert r["defaultConfiguration"]["level"] in ("error", "warning", "note"), r["id"]
    assert "graph-capture" in r["properties"]["tags"], r["id"]
root = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
assert root.startswith("file:///") and root.endswith("/"), root
seen = set()
for res in run["results"]:
    assert res["ruleId"] in ids
    assert ids[res["ruleIndex"]] == res["ruleId"]
    art = res["locations"][0]["physicalLocation"]["artifactLocation"]
    if "uriBaseId" in art:
        assert art["uriBaseId"] == "%SRCROOT%" and not art["uri"].startswith("/"), art
    fp = res["partialFingerprints"]["captureLintFinding/v1"]
    assert fp not in seen, fp
    seen.add(fp)
    if res.get("relatedLocations"):
        steps = res["codeFlows"][0]["threadFlows"][0]["locations"]
        assert len(steps) == len(res["relatedLocations"]) + 1
print("sarif ok: %d results, %d rules" % (len(run["results"]), len(ids)))
if len(sys.argv) > 3:
    for res in run["results"]:
        art = res["locations"][0]["physicalLocation"]["artifactLocation"]
        print("%s %s %s" % (art.get("uriBaseId", "-"), art["uri"],
                            res["partialFingerprints"]["captureLintFinding/v1"]))
