"""Drives an LSP server over stdio: initialize, open one file, collect the
publishDiagnostics for it, shut down. Prints one line per diagnostic:
  LINE:COL-ENDLINE:ENDCOL SEVERITY CODE MESSAGE   (1-based lines and columns)
and after it, for each quick fix clangd offers: FIX LINE:COL 'NEW TEXT'.

  lsp_diagnostics.py SERVER FILE [--timeout S] [-- SERVER ARGS]
"""
import json
import os
import subprocess
import sys
import threading
import time


def send(proc, msg):
    body = json.dumps(msg).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()


def reader(proc, inbox):
    while True:
        headers = {}
        while True:
            line = proc.stdout.readline()
            if not line:
                return
            line = line.strip()
            if not line:
                break
            k, _, v = line.decode().partition(":")
            headers[k.lower()] = v.strip()
        n = int(headers.get("content-length", 0))
        inbox.append(json.loads(proc.stdout.read(n)))


def split_server_args(argv):
    """(this script's arguments, the server's: those after `--`)."""
    if "--" not in argv:
        return argv, []
    i = argv.index("--")
    return argv[:i], argv[i + 1:]


def main():
    args, server_args = split_server_args(sys.argv[1:])
    server, path = args[0], os.path.abspath(args[1])
    timeout = 60.0
    uri = "file://" + path
    proc = subprocess.Popen([server] + server_args, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    inbox = []
    threading.Thread(target=reader, args=(proc, inbox), daemon=True).start()
    send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "processId": os.getpid(),
        "rootUri": "file://" + os.path.dirname(path),
        "capabilities": {"textDocument": {
            "publishDiagnostics": {"codeActionsInline": True},
            "codeAction": {"codeActionLiteralSupport": {
                "codeActionKind": {"valueSet": ["quickfix"]}}}}}}})
    send(proc, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
    lang = ("cuda-cpp" if path.endswith((".cu", ".cuh"))
            else "python" if path.endswith(".py") else "cpp")
    send(proc, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": uri, "languageId": lang, "version": 1,
                         "text": open(path).read()}}})
    deadline = time.time() + timeout
    diags = None
    while time.time() < deadline and diags is None:
        for m in list(inbox):
            if (m.get("method") == "textDocument/publishDiagnostics"
                    and m["params"]["uri"] == uri):
                diags = m["params"]["diagnostics"]
        time.sleep(0.05)
    if diags is None:
        print("no diagnostics within %ds" % timeout)
        proc.kill()
        return 1
    if os.environ.get("LSP_DEBUG"):
        print(json.dumps(diags)[:3000])
    for d in diags:
        r = d["range"]
        print("%d:%d-%d:%d %s %s %s" % (
            r["start"]["line"] + 1, r["start"]["character"] + 1,
            r["end"]["line"] + 1, r["end"]["character"] + 1,
            {1: "error", 2: "warning", 3: "info", 4: "hint"}[d.get("severity", 1)],
            d.get("code", "-"), d["message"].replace("\n", " ")))
        # Fixes, as clangd sends them inline (codeActionsInline).
        for action in d.get("codeActions", []):
            for edits in action.get("edit", {}).get("changes", {}).values():
                for e in edits:
                    print("FIX %d:%d %r" % (e["range"]["start"]["line"] + 1,
                                            e["range"]["start"]["character"] + 1,
                                            e["newText"]))
    send(proc, {"jsonrpc": "2.0", "id": 3, "method": "shutdown"})
    time.sleep(0.2)
    send(proc, {"jsonrpc": "2.0", "method": "exit"})
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
