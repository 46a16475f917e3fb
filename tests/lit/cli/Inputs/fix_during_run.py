"""fix_during_run.py WHAT FILE -- CAPTURE-LINT ARGS...: runs capture-lint
(with --fix among ARGS) and, half-way through its analysis (timed by a run
without --fix first), does WHAT to FILE:
  edit     an editor's save: a line is added at the top (a new file renamed
           over FILE)
  symlink  FILE becomes a symlink to FILE.other
Prints capture-lint's exit status as "rc=N" and passes its stderr through."""
import os
import subprocess
import sys
import time

what, path = sys.argv[1], sys.argv[2]
cmd = sys.argv[sys.argv.index("--") + 1:]
start = time.monotonic()
subprocess.run([a for a in cmd if a != "--fix"], stdout=subprocess.DEVNULL,
               stderr=subprocess.DEVNULL)
delay = (time.monotonic() - start) / 2
proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
time.sleep(delay)
if what == "edit":
    text = open(path).read()
    with open(path + ".new", "w") as f:
        f.write("// one line added by an editor\n" + text)
    os.rename(path + ".new", path)
elif what == "symlink":
    os.remove(path)
    os.symlink(os.path.basename(path) + ".other", path)
print("rc=%d" % proc.wait(), flush=True)
