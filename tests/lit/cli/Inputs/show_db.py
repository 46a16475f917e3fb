"""Prints an exported compile database one line per fact, for FileCheck, and
fails if an entry has a field other than directory, file, arguments, output
or lacks one of the first three:

  show_db.py compile_commands.json
"""
import json
import sys

for i, e in enumerate(json.load(open(sys.argv[1]))):
    extra = set(e) - {"directory", "file", "arguments", "output"}
    missing = {"directory", "file", "arguments"} - set(e)
    if extra or missing:
        sys.exit("entry %d: unexpected fields %s, missing %s" %
                 (i, sorted(extra), sorted(missing)))
    print("entry %d file: %s" % (i, e["file"]))
    print("entry %d directory: %s" % (i, e["directory"]))
    print("entry %d output: %s" % (i, e.get("output", "-")))
    print("entry %d args: %s" % (i, " ".join(e["arguments"])))
