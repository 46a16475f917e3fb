"""Runs a command with stdout and stderr on a pseudo-terminal (as in an
interactive shell) or only one of them there, and prints what it wrote with
escapes made visible (ESC as <ESC>, carriage return as <CR>), for FileCheck.
TERM is set to xterm-256color, a terminal with colours. Exits with the
command's status.

  run_in_pty.py [--only-stderr|--only-stdout] CMD ARGS...
"""
import os
import pty
import subprocess
import sys

args = sys.argv[1:]
only = None
if args and args[0] in ("--only-stderr", "--only-stdout"):
    only, args = args[0], args[1:]
master, slave = pty.openpty()
out = subprocess.PIPE if only == "--only-stderr" else slave
err = subprocess.PIPE if only == "--only-stdout" else slave
env = dict(os.environ, TERM="xterm-256color")
proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                        env=env)
os.close(slave)
chunks = []
while True:
    try:
        data = os.read(master, 65536)
    except OSError:  # EIO: the other side is closed
        break
    if not data:
        break
    chunks.append(data)
piped = b""
if proc.stdout:
    piped += proc.stdout.read()
if proc.stderr:
    piped += proc.stderr.read()
status = proc.wait()
text = (b"".join(chunks) + piped).decode("utf-8", "replace")
sys.stdout.write(text.replace("\x1b", "<ESC>").replace("\r\n", "\n")
                 .replace("\r", "<CR>"))
sys.exit(status)
