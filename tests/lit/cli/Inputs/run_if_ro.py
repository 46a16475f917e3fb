"""Runs CMD unless HOWFILE (written by readonly_dir.py or full_disk.py) says
the mechanism is unavailable; then prints "skipped: REASON" and succeeds.

  run_if_ro.py HOWFILE CMD ARGS...
"""
import os
import subprocess
import sys

how = open(sys.argv[1]).read().strip()
if how.startswith("skip"):
    print("skipped: " + how[len("skip: "):])
    sys.exit(0)
sys.exit(subprocess.run(sys.argv[2:]).returncode)
