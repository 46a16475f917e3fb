"""closed_stdout.py CMD ARGS...: runs CMD with its stdout a pipe whose
reader has already gone (as `CMD | head -0` does), passes its stderr through
and prints its exit status as "rc=N" (141 would be death by SIGPIPE)."""
import os
import subprocess
import sys

read_end, write_end = os.pipe()
os.close(read_end)
proc = subprocess.Popen(sys.argv[1:], stdout=write_end)
os.close(write_end)
print("rc=%d" % proc.wait(), flush=True)
