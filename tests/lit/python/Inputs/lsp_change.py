"""Opens a Python file in capture-lint --lsp, then replaces `.item()` reads
in it through didChange, and prints how many diagnostics each step gets and
the server's exit status after shutdown/exit.

  lsp_change.py CAPTURE_LINT FILE
"""
import json
import os
import subprocess
import sys


def send(proc, msg):
    body = json.dumps(msg).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()


def receive(proc):
    length = 0
    while True:
        line = proc.stdout.readline().strip()
        if not line:
            break
        key, _, value = line.decode().partition(":")
        if key.lower() == "content-length":
            length = int(value)
    return json.loads(proc.stdout.read(length))


def diagnostics(proc):
    while True:
        m = receive(proc)
        if m.get("method") == "textDocument/publishDiagnostics":
            return m["params"]["diagnostics"]


def main():
    lint, path = sys.argv[1], os.path.abspath(sys.argv[2])
    uri = "file://" + path
    text = open(path).read()
    proc = subprocess.Popen([lint, "--lsp"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE)
    send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"capabilities": {}}})
    receive(proc)
    send(proc, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": uri, "languageId": "python", "version": 1,
                         "text": text}}})
    n = len(diagnostics(proc))
    print("open: %d diagnostic%s" % (n, "" if n == 1 else "s"))
    send(proc, {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": {"uri": uri, "version": 2},
        "contentChanges": [{"text": text.replace(".item()", ".clone()")}]}})
    n = len(diagnostics(proc))
    print("change: %d diagnostic%s" % (n, "" if n == 1 else "s"))
    send(proc, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    receive(proc)
    send(proc, {"jsonrpc": "2.0", "method": "exit"})
    print("exit status %d" % proc.wait(timeout=30))


if __name__ == "__main__":
    main()
