"""Runs a command, passes its stdout/stderr through, and fails unless it
exits with the expected status: expect_exit.py CODE CMD ARGS..."""
import subprocess
import sys

want = int(sys.argv[1])
proc = subprocess.run(sys.argv[2:])
if proc.returncode != want:
    sys.stderr.write("expected exit status %d, got %d\n" % (want, proc.returncode))
    sys.exit(1)
