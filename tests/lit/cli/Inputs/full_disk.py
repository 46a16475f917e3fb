"""Mounts a 64 KiB tmpfs at DIR and fills it, so every write there fails with
"No space left on device". Needs root; prints "mount" or "skip: REASON".

  full_disk.py DIR
"""
import os
import subprocess
import sys

d = sys.argv[1]
os.makedirs(d, exist_ok=True)
r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", d],
                   capture_output=True, text=True)
if r.returncode != 0:
    print("skip: cannot mount a tmpfs (%s)" % (r.stderr.strip() or "not root"))
    sys.exit(0)
try:
    with open(os.path.join(d, "filler"), "wb") as f:
        while True:
            f.write(b"\0" * 4096)
            f.flush()
except OSError:
    pass
print("mount")
