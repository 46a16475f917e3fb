"""Opens a document whose finding follows 'é' and '😀' on its line in
capture-lint --lsp and prints the diagnostic's start ("character=N"), then
the error code of a request sent after shutdown ("after shutdown: N").

  lsp_columns.py CAPTURE_LINT DIR
"""
import json
import subprocess
import sys

tool, d = sys.argv[1], sys.argv[2]
uri = "file://" + d + "/columns.py"
TEXT = ('import torch\n\n\ndef capture(g, x):\n    with torch.cuda.graph(g):\n'
        '        s = "\u00e9\U0001F600"; top = x.max().item()\n')


def msg(m):
    b = json.dumps(m).encode()
    return b"Content-Length: %d\r\n\r\n" % len(b) + b


data = (msg({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}) +
        msg({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": "python", "version": 1,
                             "text": TEXT}}}) +
        msg({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}) +
        msg({"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover",
             "params": {}}) +
        msg({"jsonrpc": "2.0", "method": "exit"}))
out = subprocess.run([tool, "--lsp"], input=data, capture_output=True,
                     timeout=120).stdout
while out:
    head, _, rest = out.partition(b"\r\n\r\n")
    n = int(head.split(b":")[1])
    m = json.loads(rest[:n])
    out = rest[n:]
    if m.get("id") == 3:
        print("after shutdown: %d" % m["error"]["code"])
    if m.get("method") == "textDocument/publishDiagnostics":
        for diag in m["params"]["diagnostics"]:
            print("character=%d" % diag["range"]["start"]["character"])
