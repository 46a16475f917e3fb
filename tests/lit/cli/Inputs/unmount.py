"""Unmounts each DIR that is a mount point (tmpfs mounts left by a failed
run of a test), ignoring the others: unmount.py DIR..."""
import os
import subprocess
import sys

for d in sys.argv[1:]:
    if os.path.ismount(d):
        subprocess.run(["umount", "-l", d], stderr=subprocess.DEVNULL)
