"""Opens FILE (a capture region without hazards) in an LSP server, sends one
didChange whose range lies outside the document (BAD: past-line, past-end,
reversed), then a valid incremental change that inserts a cudaMalloc at the
start of the region's second line (where it is if the bad change was
applied clamped into the document), and prints the checks of the
diagnostics published for that last version, "v3: capture-allocation", then
the server log's lines about the bad change. A server that dropped the
document publishes nothing for it ("v3: none").

  lsp_bad_change.py SERVER FILE BAD
"""
import os
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
from lsp_diagnostics import reader, send  # noqa: E402

# Each bad change: its range, its text, and how many lines it adds before
# the region when applied clamped to the document (FILE's lines 1 and 2 are
# comments the changes may touch).
BAD = {
    # a UTF-16 character far past the end of line 1: appended to the line
    "past-line": (((1, 500), (1, 600)), "\n// added", 1),
    # a line past the end of the document: appended to the document
    "past-end": (((400, 0), (401, 0)), "\n// appended\n", 0),
    # an end before the start: the range between them
    "reversed": (((2, 0), (1, 0)), "// replaced\n", 0),
}


def main():
    server, path, bad = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
    text = open(path).read()
    lines = text.split("\n")
    region = next(i for i, l in enumerate(lines) if "BeginCapture" in l)
    uri = "file://" + path
    proc = subprocess.Popen([server], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    inbox = []
    threading.Thread(target=reader, args=(proc, inbox), daemon=True).start()
    send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "processId": os.getpid(), "rootUri": "file://" + os.path.dirname(path),
        "capabilities": {}}})
    send(proc, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
    send(proc, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": uri, "languageId": "cuda-cpp", "version": 1,
                         "text": text}}})
    ((sl, sc), (el, ec)), bad_text, shift = BAD[bad]
    send(proc, {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": {"uri": uri, "version": 2},
        "contentChanges": [{"range": {
            "start": {"line": sl, "character": sc},
            "end": {"line": el, "character": ec}}, "text": bad_text}]}})
    insert_at = region + 1 + shift
    send(proc, {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": {"uri": uri, "version": 3},
        "contentChanges": [{"range": {
            "start": {"line": insert_at, "character": 0},
            "end": {"line": insert_at, "character": 0}},
            "text": "  void *leak; cudaMalloc(&leak, 16);\n"}]}})
    seen = {}
    deadline = time.time() + 120
    while time.time() < deadline and 3 not in seen and proc.poll() is None:
        for m in list(inbox):
            if (m.get("method") == "textDocument/publishDiagnostics"
                    and m["params"]["uri"] == uri
                    and m["params"].get("version") is not None):
                seen[m["params"]["version"]] = m["params"]["diagnostics"]
        time.sleep(0.05)
    for v in (3,):
        if v not in seen:
            print("v%d: none" % v)
            continue
        codes = sorted({str(d.get("code")) for d in seen[v]
                        if str(d.get("code", "")).startswith("capture-")})
        print("v%d: %s" % (v, " ".join(codes) or "-"))
    send(proc, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    send(proc, {"jsonrpc": "2.0", "method": "exit"})
    try:
        _, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
    for line in err.decode(errors="replace").splitlines():
        if "outside the document" in line or "Failed to update" in line:
            print("log: " + line.split("] ", 1)[-1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
