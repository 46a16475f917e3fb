"""Opens FILES one after another in an LSP server (as an editor would, each
with the text it has on disk), waits for each file's diagnostics, and checks
that the server is still running and answering at the end. Prints one line
per file ("NAME: N diagnostics" or "NAME: no diagnostics within S s"), then
"server alive" or "server died (status N)". Exits 1 if the server died.

  lsp_survives.py SERVER [--timeout S] FILE...

SERVER is a command line ("capture-lint --lsp").
"""
import json
import os
import shlex
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
from lsp_diagnostics import reader  # noqa: E402
from lsp_diagnostics import send as send_or_raise  # noqa: E402


def send(proc, msg):
    try:
        send_or_raise(proc, msg)
    except BrokenPipeError:
        pass  # the server died; reported below


def main():
    args = sys.argv[1:]
    timeout = 120.0
    if args[1] == "--timeout":
        timeout = float(args[2])
        args = [args[0]] + args[3:]
    server, files = args[0], [os.path.abspath(f) for f in args[1:]]
    proc = subprocess.Popen(shlex.split(server), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    inbox = []
    threading.Thread(target=reader, args=(proc, inbox), daemon=True).start()
    send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "processId": os.getpid(), "rootUri": "file://" + os.path.dirname(files[0]),
        "capabilities": {}}})
    send(proc, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
    for path in files:
        uri = "file://" + path
        lang = ("cuda-cpp" if path.endswith((".cu", ".cuh")) else
                "python" if path.endswith(".py") else "cpp")
        send(proc, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": lang, "version": 1,
                             "text": open(path).read()}}})
        deadline = time.time() + timeout
        diags = None
        while time.time() < deadline and diags is None and proc.poll() is None:
            for m in list(inbox):
                if (m.get("method") == "textDocument/publishDiagnostics"
                        and m["params"]["uri"] == uri):
                    diags = m["params"]["diagnostics"]
            time.sleep(0.05)
        name = os.path.basename(path)
        if diags is None:
            print("%s: no diagnostics within %d s" % (name, timeout))
        else:
            print("%s: %d diagnostics" % (name, len(diags)))
    # Still answering requests?
    send(proc, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    deadline = time.time() + 30
    answered = False
    while time.time() < deadline and not answered and proc.poll() is None:
        answered = any(m.get("id") == 2 for m in list(inbox))
        time.sleep(0.05)
    if answered:
        print("server alive")
        send(proc, {"jsonrpc": "2.0", "method": "exit"})
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        return 0
    proc.kill()
    print("server died (status %s)" % proc.wait())
    return 1


if __name__ == "__main__":
    sys.exit(main())
