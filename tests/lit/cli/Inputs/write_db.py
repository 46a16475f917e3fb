"""Writes DIR/compile_commands.json with one entry for DIR/k.cu, broken in one
way (or not):

  write_db.py DIR MODE
    ok                 a good entry
    missing-directory  "directory" names a directory that does not exist
    relative-directory "directory" is relative
    command-list       "command" is an array instead of a string
    no-command         neither "command" nor "arguments"
    not-array          the document is an object
"""
import json
import os
import sys

d, mode = sys.argv[1], sys.argv[2]
entry = {"directory": d, "file": os.path.join(d, "k.cu"),
         "command": "clang++ -x c++ -c k.cu -o k.o"}
if mode == "missing-directory":
    entry["directory"] = os.path.join(d, "gone", "build")
elif mode == "relative-directory":
    entry["directory"] = "build"
    entry["file"] = "../k.cu"
elif mode == "command-list":
    entry["command"] = ["clang++", "-c", "k.cu"]
elif mode == "no-command":
    del entry["command"]
db = {"entries": [entry]} if mode == "not-array" else [entry]
json.dump(db, open(os.path.join(d, "compile_commands.json"), "w"))
