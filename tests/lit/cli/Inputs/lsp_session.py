"""Plays an editor's session with an LSP server over stdio, step by step,
and prints what the server answers (issue 27, item 5: one server for C++,
CUDA and Python documents).

  lsp_session.py SERVER STEP... [-- SERVER ARGS]

Steps (files are opened with their text from disk):
  open:FILE               didOpen (languageId from the extension)
  wait:FILE               prints the next publishDiagnostics for FILE:
                            FILE: N diagnostics
                            LINE:COL SEVERITY CODE MESSAGE
  edit:FILE:LINE:OLD:NEW  an incremental didChange replacing the first OLD
                          on LINE (1-based) by NEW
  hover:FILE:LINE:COL     a hover request; prints `hover: RESULT or ERROR`
  close:FILE              didClose, then waits for the cleared diagnostics
  run:COMMAND             runs COMMAND with the shell (a change on disk)
Every step is bounded (60 s); the session ends with shutdown and exit and
prints the server's exit status.
"""
import json
import os
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_diagnostics import reader, send, split_server_args  # noqa: E402

LANGS = {".cu": "cuda-cpp", ".cuh": "cuda-cpp", ".py": "python"}


class Session:
    def __init__(self, argv):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE,
                                     stderr=None if os.environ.get("LSP_STDERR") else subprocess.DEVNULL)
        self.inbox, self.seen, self.next_id = [], 0, 10
        self.texts, self.versions = {}, {}
        threading.Thread(target=reader, args=(self.proc, self.inbox),
                         daemon=True).start()

    def send(self, msg):
        msg["jsonrpc"] = "2.0"
        send(self.proc, msg)

    def request(self, method, params):
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        return self.expect(lambda m: m.get("id") == self.next_id
                           and "method" not in m)

    def expect(self, wanted):
        deadline = time.time() + 60
        while time.time() < deadline:
            for i, m in enumerate(self.inbox):
                if wanted(m):
                    del self.inbox[i]
                    return m
            time.sleep(0.02)
        return None

    def diagnostics(self, path):
        uri = "file://" + path
        m = self.expect(lambda m: m.get("method") ==
                        "textDocument/publishDiagnostics"
                        and m["params"]["uri"] == uri)
        name = os.path.basename(path)
        if m is None:
            print("%s: no diagnostics within 60s" % name)
            return
        diags = m["params"]["diagnostics"]
        print("%s: %d diagnostics" % (name, len(diags)))
        for d in diags:
            s = d["range"]["start"]
            print("%d:%d %s %s %s" % (
                s["line"] + 1, s["character"] + 1,
                {1: "error", 2: "warning", 3: "info", 4: "hint"}[
                    d.get("severity", 1)],
                d.get("code", "-"), d["message"].replace("\n", " ")))

    def step(self, step):
        kind, _, rest = step.partition(":")
        if kind == "run":
            subprocess.run(rest, shell=True, check=True)
            return
        if kind == "hover":
            f, line, col = rest.rsplit(":", 2)
            r = self.request("textDocument/hover", {
                "textDocument": {"uri": "file://" + os.path.abspath(f)},
                "position": {"line": int(line) - 1,
                             "character": int(col) - 1}})
            print("hover:", "no answer" if r is None else
                  json.dumps(r.get("result", r.get("error"))))
            return
        if kind == "edit":
            f, line, old, new = rest.split(":", 3)
        else:
            f = rest
        path = os.path.abspath(f)
        uri = "file://" + path
        if kind == "open":
            self.texts[path] = open(path).read()
            self.versions[path] = 1
            self.send({"method": "textDocument/didOpen", "params": {
                "textDocument": {
                    "uri": uri, "version": 1, "text": self.texts[path],
                    "languageId": LANGS.get(os.path.splitext(path)[1],
                                            "cpp")}}})
        elif kind == "wait":
            self.diagnostics(path)
        elif kind == "edit":
            n = int(line) - 1
            text = self.texts[path].split("\n")[n]
            col = text.index(old)
            self.versions[path] += 1
            lines = self.texts[path].split("\n")
            lines[n] = text[:col] + new + text[col + len(old):]
            self.texts[path] = "\n".join(lines)
            self.send({"method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": self.versions[path]},
                "contentChanges": [{"range": {
                    "start": {"line": n, "character": col},
                    "end": {"line": n, "character": col + len(old)}},
                    "text": new}]}})
        elif kind == "close":
            self.send({"method": "textDocument/didClose",
                       "params": {"textDocument": {"uri": uri}}})
            self.diagnostics(path)
        else:
            sys.exit("lsp_session.py: unknown step '%s'" % step)

    def end(self):
        self.request("shutdown", None)
        self.send({"method": "exit"})
        try:
            status = self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            status = "killed (still running 10 s after exit)"
        print("exit status", status)


def main():
    args, server_args = split_server_args(sys.argv[1:])
    s = Session([args[0]] + server_args)
    root = os.getcwd()
    s.request("initialize", {"processId": os.getpid(),
                             "rootUri": "file://" + root, "capabilities": {}})
    s.send({"method": "initialized", "params": {}})
    for step in args[1:]:
        s.step(step)
    s.end()


if __name__ == "__main__":
    main()
