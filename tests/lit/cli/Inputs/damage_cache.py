"""Damages every entry of a capture-lint cache directory in one way:

  damage_cache.py MODE DIR
    null-functions  well-formed JSON, "summary": {"functions": null, ...}
    negative-offset a summarised hazard's offset is -1
    fifo            the entry is a FIFO (a plain read would block forever)
    dev-zero        the entry is a symlink to /dev/zero (endless)
    truncated       the entry is cut in half
    dep-fifo        a dependency the entry names is a FIFO
Prints how many entries it damaged.
"""
import json
import os
import sys

mode, d = sys.argv[1], sys.argv[2]
n = 0
for name in sorted(os.listdir(d)):
    if not name.endswith(".json"):
        continue
    path = os.path.join(d, name)
    text = open(path).read()
    if mode in ("fifo", "dev-zero"):
        os.remove(path)
        if mode == "fifo":
            os.mkfifo(path)
        else:
            os.symlink("/dev/zero", path)
    elif mode == "truncated":
        open(path, "w").write(text[: len(text) // 2])
    else:
        j = json.loads(text)
        if mode == "null-functions":
            j["summary"]["functions"] = None
        elif mode == "negative-offset":
            for f in j["summary"]["functions"]:
                for h in f["hazards"]:
                    h["at"][1] = -1
        elif mode == "dep-fifo":
            fifo = path + ".dep-fifo"
            os.mkfifo(fifo)
            j["deps"].insert(0, [fifo, "0000000000000000"])
        open(path, "w").write(json.dumps(j))
    n += 1
print("damaged %d" % n)
