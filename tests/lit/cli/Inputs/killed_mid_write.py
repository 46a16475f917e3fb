"""Runs CMD with a file-size limit of LIMIT bytes and SIGXFSZ at its default
action, so the process is killed by a signal in the middle of writing its
output, then lists what is left in DIR (one name a line). A writer that
cleans up on signals leaves no temporary file there.

  killed_mid_write.py LIMIT DIR CMD ARGS...
"""
import os
import resource
import signal
import subprocess
import sys

limit, d, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3:]


def limited():
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


proc = subprocess.run(cmd, preexec_fn=limited, stdout=subprocess.DEVNULL,
                      stderr=subprocess.DEVNULL)
print("status %d" % proc.returncode)
for name in sorted(os.listdir(d)):
    print("left " + name)
