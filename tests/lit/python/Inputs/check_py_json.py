"""Asserts the JSON record of a Python finding: same fields as C++ ones."""
import json
import sys

doc = json.load(open(sys.argv[1]))
findings = doc["findings"]
py = [f for f in findings if f["file"].endswith(".py")]
cu = [f for f in findings if f["file"].endswith(".cu")]
f = py[0]
assert f["check"] == "capture-host-read", f
assert f["severity"] == "error", f
assert f["api"] == "torch.Tensor.item", f
assert (f["line"], f["column"]) == (7, 15), f
assert f["region"] == {"file": f["file"], "begin_line": 5, "end_line": 7,
                       "mode": "thread_local", "stream": ""}, f["region"]
assert [n["line"] for n in f["notes"]] == [5], f["notes"]
print("json ok: %d python, %d cuda findings" % (len(py), len(cu)))
