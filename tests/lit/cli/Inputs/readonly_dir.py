"""Makes DIR hold a copy of SRC that this process cannot write: a read-only
tmpfs when we are root (root ignores file modes), mode 0444 otherwise.
Prints how: "mount", "mode" or "skip: REASON" (no way available).

  readonly_dir.py DIR SRC
"""
import os
import shutil
import subprocess
import sys

d, src = sys.argv[1], sys.argv[2]
os.makedirs(d, exist_ok=True)
if os.geteuid() != 0:
    shutil.copy(src, d)
    os.chmod(os.path.join(d, os.path.basename(src)), 0o444)
    print("mode")
    sys.exit(0)
subprocess.run(["umount", d], stderr=subprocess.DEVNULL)
r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", d],
                   capture_output=True, text=True)
if r.returncode != 0:
    print("skip: cannot mount a tmpfs (%s)" % r.stderr.strip())
    sys.exit(0)
shutil.copy(src, d)
r = subprocess.run(["mount", "-o", "remount,ro", d], capture_output=True, text=True)
if r.returncode != 0:
    subprocess.run(["umount", d])
    print("skip: cannot remount read-only (%s)" % r.stderr.strip())
    sys.exit(0)
print("mount")
