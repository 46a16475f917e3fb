"""Runs a command and fails when its peak resident memory exceeds a bound.

usage: peak_memory.py MAX_MB COMMAND... ; exits 1 when the peak (ru_maxrss of
the child, printed to stderr) exceeds MAX_MB or the command crashed, else 0.
"""
import resource
import subprocess
import sys

limit_mb = int(sys.argv[1])
status = subprocess.call(sys.argv[2:], stdout=subprocess.DEVNULL)
peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
print("peak resident memory: %d MB (bound %d MB)" % (peak_mb, limit_mb),
      file=sys.stderr)
if peak_mb > limit_mb or status < 0 or status > 2:
    sys.exit(1)
sys.exit(0)
