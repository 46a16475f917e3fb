"""run_together.py CMD1 CMD2...: starts the shell commands at once, waits
for all, and prints their exit statuses on one line ("rc=1 rc=2"), after
passing their stderr through."""
import subprocess
import sys

procs = [subprocess.Popen(c, shell=True, stdout=subprocess.DEVNULL)
         for c in sys.argv[1:]]
print(" ".join("rc=%d" % p.wait() for p in procs), flush=True)
