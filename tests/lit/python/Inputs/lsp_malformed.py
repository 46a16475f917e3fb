"""Sends capture-lint --lsp one malformed or wrongly typed message per case,
between an initialize and a valid didOpen plus a request, and prints per
case what came back: the JSON-RPC error codes, whether the request after it
was answered, whether the valid document got its diagnostic, and the exit
status (after shutdown and exit).

  lsp_malformed.py CAPTURE_LINT DIR
"""
import json
import os
import subprocess
import sys

tool, d = sys.argv[1], sys.argv[2]
uri = "file://" + d + "/m.py"
TEXT = ("import torch\n\n\ndef capture(g, x):\n    with torch.cuda.graph(g):\n"
        "        top = x.max().item()\n")


def frame(b):
    return b"Content-Length: %d\r\n\r\n" % len(b) + b


def msg(m):
    return frame(json.dumps(m).encode())


def did_open(u, t):
    return msg({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": u, "languageId": "python", "version": 1,
                         "text": t}}})


os.makedirs(d + "/pkg", exist_ok=True)
open(d + "/pkg/__init__.py", "w").close()
open(d + "/pkg/layers.py", "wb").write(b'def dbg(x):\n    return x["caf\xe9"].item()\n')
RUN = ("import torch\nfrom .layers import dbg\n\n\ndef capture(g, x):\n"
       "    with torch.cuda.graph(g):\n        dbg(x)\n")
CASES = [
    ("length-abc", b"Content-Length: abc\r\n\r\n{}"),
    ("length-huge", b"Content-Length: 99999999999999999999\r\n\r\n{}"),
    ("length-4T", b"Content-Length: 4398046511104\r\n\r\n{}"),
    ("length-negative", b"Content-Length: -5\r\n\r\n{}"),
    ("no-length", b"Content-Type: x\r\n\r\n{}"),
    ("not-json", frame(b"{not json")),
    ("array", frame(b"[]")),
    ("lone-surrogate", frame(b'{"jsonrpc":"2.0","method":"textDocument/didOpen",'
                             b'"params":{"textDocument":{"uri":"' + uri.encode() +
                             b'","text":"\\ud800"}}}')),
    ("method-number", msg({"jsonrpc": "2.0", "id": 7, "method": 5})),
    ("didOpen-no-document", msg({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                                 "params": {}})),
    ("didOpen-text-number", msg({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                                 "params": {"textDocument": {"uri": uri, "text": 5}}})),
    ("didChange-changes-string", msg({"jsonrpc": "2.0", "method": "textDocument/didChange",
                                      "params": {"textDocument": {"uri": uri, "version": 2},
                                                 "contentChanges": "x"}})),
    ("params-array", msg({"jsonrpc": "2.0", "id": 8, "method": "initialize", "params": []})),
    ("bad-percent-escape", did_open("file://" + d + "/%zz.py", TEXT)),
    ("latin1-module", did_open("file://" + d + "/pkg/run.py", RUN)),
]
INIT = msg({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}})
AFTER = (did_open(uri, TEXT) +
         msg({"jsonrpc": "2.0", "id": 42, "method": "workspace/symbol",
              "params": {"query": ""}}) +
         msg({"jsonrpc": "2.0", "id": 43, "method": "shutdown"}) +
         msg({"jsonrpc": "2.0", "method": "exit"}))


def messages(out):
    found = []
    while out:
        head, sep, rest = out.partition(b"\r\n\r\n")
        if not sep:
            break
        n = int(head.split(b":")[1])
        found.append(json.loads(rest[:n]))
        out = rest[n:]
    return found


for name, bad in CASES:
    p = subprocess.run([tool, "--lsp"], input=INIT + bad + AFTER,
                       capture_output=True, timeout=120)
    got = messages(p.stdout)
    codes = [m["error"]["code"] for m in got if "error" in m and m.get("id") != 42]
    answered = any(m.get("id") == 42 for m in got)
    diag = any(m.get("method") == "textDocument/publishDiagnostics" and
               m["params"]["uri"] == uri and m["params"]["diagnostics"]
               for m in got)
    print("%s: errors=%s answered=%s diagnostic=%s exit=%d" % (
        name, codes, answered, diag, p.returncode))
