"""Runs CMD; kills it and exits 124 ("hung") after SECONDS, otherwise exits
with its status: with_timeout.py SECONDS CMD ARGS..."""
import subprocess
import sys

try:
    sys.exit(subprocess.run(sys.argv[2:], timeout=float(sys.argv[1])).returncode)
except subprocess.TimeoutExpired:
    sys.stderr.write("hung: killed after %s s\n" % sys.argv[1])
    sys.exit(124)
