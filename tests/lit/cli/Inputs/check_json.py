"""Asserts the documented --format=json fields of capture-lint's report."""
import json
import sys

doc = json.load(open(sys.argv[1]))
assert doc["version"] == 1, doc["version"]
assert doc["tool"]["name"] == "capture-lint"
findings = doc["findings"]
assert findings, "expected findings"
for f in findings:
    for key in ("check", "severity", "file", "line", "column", "message",
                "api", "via", "hazard_at", "region", "notes"):
        assert key in f, "missing field %r in %r" % (key, f)
    assert f["check"].startswith("capture-")
    assert f["severity"] in ("error", "warning", "remark")
    assert isinstance(f["line"], int) and f["line"] > 0
    assert isinstance(f["column"], int) and f["column"] > 0
    r = f["region"]
    for key in ("file", "begin_line", "end_line", "mode", "stream"):
        assert key in r, "missing region field %r" % key
    for n in f["notes"]:
        for key in ("file", "line", "column", "message"):
            assert key in n
by_api = {f["api"]: f for f in findings}
alloc = by_api["cudaMalloc"]
assert alloc["check"] == "capture-allocation" and alloc["severity"] == "error"
assert alloc["line"] == 7 and alloc["column"] == 3
assert alloc["via"] is None, alloc["via"]
assert alloc["hazard_at"] == {"file": alloc["file"], "line": 7, "column": 3}
assert alloc["region"] == {"file": alloc["file"], "begin_line": 6,
                           "end_line": 9, "mode": "global", "stream": "s"}, alloc["region"]
sync = by_api["cudaDeviceSynchronize"]
assert sync["line"] == 8, sync
assert [n["line"] for n in sync["notes"]] == [2, 6], sync["notes"]
assert doc["summary"]["findings"] == len(findings)
print("json ok: %d findings" % len(findings))
