"""Damages every entry of a capture-lint cache directory in one way:

  damage_cache.py MODE DIR
    null-functions  well-formed JSON, "summary": {"functions": null, ...}
    negative-offset a summarised hazard's offset is -1
    fifo            the entry is a FIFO (a plain read would block forever)
    dev-zero        the entry is a symlink to /dev/zero (endless)
    truncated       the entry is cut in half
    dep-fifo        a dependency the entry names is a FIFO
    no-roles        "roles": [] in the summary (well-formed, within the schema)
    fixes-elsewhere every fix is "POISONED " at offset 0 of DIR/../victim.txt
    other-entry     each entry is replaced by a copy of the first other TU's
    linked-entry    ... or by a symlink to it
Prints how many entries it damaged.
"""
import json
import os
import sys

mode, d = sys.argv[1], sys.argv[2]
n = 0
names = sorted(x for x in os.listdir(d) if x.endswith(".json"))
texts = {x: open(os.path.join(d, x)).read() for x in names}
for name in names:
    path = os.path.join(d, name)
    text = texts[name]
    if mode in ("other-entry", "linked-entry"):
        tu = name.rsplit("-", 1)[0]
        other = next(x for x in names if x.rsplit("-", 1)[0] != tu)
        os.remove(path)
        if mode == "other-entry":
            open(path, "w").write(texts[other])
        else:
            os.symlink(other, path)
    elif mode in ("fifo", "dev-zero"):
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
        elif mode == "no-roles":
            j["summary"]["roles"] = []
        elif mode == "fixes-elsewhere":
            victim = os.path.join(os.path.dirname(d), "victim.txt")
            for f in j["findings"]:
                for x in f["fixes"]:
                    x.update(file=victim, offset=0, length=0, text="POISONED ")
        open(path, "w").write(json.dumps(j))
    n += 1
print("damaged %d" % n)
