"""Opens files in an LSP server and, while it still parses them, ends the
session: `shutdown` then `exit`, or `exit` alone (--no-shutdown). Prints the
server's exit status and how long it took to go after `exit` (issue 27,
item 5: an editor waits for that).

  lsp_exit.py SERVER [--no-shutdown] FILE...
"""
import os
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_diagnostics import reader, send  # noqa: E402


def main():
    args = sys.argv[1:]
    server, shutdown = args[0], "--no-shutdown" not in args
    files = [a for a in args[1:] if a != "--no-shutdown"]
    proc = subprocess.Popen([server], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    inbox = []
    threading.Thread(target=reader, args=(proc, inbox), daemon=True).start()
    send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "processId": os.getpid(), "capabilities": {},
        "rootUri": "file://" + os.path.dirname(os.path.abspath(files[0]))}})
    send(proc, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
    for f in files:
        path = os.path.abspath(f)
        send(proc, {"jsonrpc": "2.0", "method": "textDocument/didOpen",
                    "params": {"textDocument": {
                        "uri": "file://" + path, "languageId": "cuda-cpp",
                        "version": 1, "text": open(path).read()}}})
    time.sleep(0.3)  # the parses have begun
    if shutdown:
        send(proc, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        deadline = time.time() + 30
        while time.time() < deadline and not any(
                m.get("id") == 2 for m in list(inbox)):
            time.sleep(0.01)
    start = time.time()
    send(proc, {"jsonrpc": "2.0", "method": "exit"})
    try:
        status = proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        print("still running 60 s after exit")
        return 1
    print("exit status %d" % status)
    print("gone %.2f s after exit" % (time.time() - start), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
