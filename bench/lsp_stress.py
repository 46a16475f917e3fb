#!/usr/bin/env python3
"""Drives capture-clangd over LSP with mutated editor buffers for a bounded
time and checks that it stays alive and answers (issue 12).

Each step replaces the open buffer (didChange, full text) with a mutation of
a seed file: cut at a random point (a half-typed edit), a slice duplicated
or deleted, random CUDA tokens inserted (<<<, >>>, unbalanced brackets,
templates, macros), or a deeply nested chunk (nested macro arguments, unary
operators). After each change it waits for that version's diagnostics and
every few steps sends a documentSymbol request that must be answered.

  bench/lsp_stress.py --server build/tool/clangd/capture-clangd \\
      [--seconds 60] [--seed 1] [SEED_FILE...]

Prints the number of buffers tried, the answers received and the slowest
answer; exits 1 if the server died or did not answer within --answer-timeout.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "lit", "cli", "Inputs"))
from lsp_diagnostics import reader, send  # noqa: E402

TOKENS = ["<<<", ">>>", "(", ")", "{", "}", "[", "]", "<", ">", ",", ";",
          "template<class T>", "#define F(x) x\n", "F(", "k<<<1,1>>>(",
          "cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);",
          "cudaMalloc(&p, 4);", "\n#if 1\n", "\n#endif\n", "decltype(",
          "[&]{", "::", "auto", "\"", "'", "/*", "*/", "\\\n"]


def mutate(rng, text):
    kind = rng.randrange(6)
    if kind == 0 and text:
        return text[:rng.randrange(len(text))]
    if kind == 1 and text:
        a = rng.randrange(len(text))
        b = min(len(text), a + rng.randrange(1, 200))
        return text[:b] + text[a:b] * rng.randrange(1, 4) + text[b:]
    if kind == 2 and text:
        a = rng.randrange(len(text))
        return text[:a] + text[a + rng.randrange(1, 100):]
    if kind == 3:
        pos = rng.randrange(len(text) + 1)
        ins = "".join(rng.choice(TOKENS) for _ in range(rng.randrange(1, 20)))
        return text[:pos] + ins + text[pos:]
    if kind == 4:
        n = rng.choice([100, 1000, 3000])
        return text + "\n#define F(x) x\nint deep = " + "F(" * n + "1" + ")" * n + ";\n"
    n = rng.choice([1000, 20000, 100000])
    return text + "\nint neg = " + "-" * n + "1;\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", required=True)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--answer-timeout", type=float, default=120)
    ap.add_argument("seeds", nargs="*")
    a = ap.parse_args()
    seeds = a.seeds or [os.path.join(ROOT, "tests/lit/cli/Inputs", f) for f in
                        ("fixable.cu", "buggy.cu", "half-typed-launch.cu")]
    texts = [open(s).read() for s in seeds]
    rng = random.Random(a.seed)
    work = tempfile.mkdtemp(prefix="lsp-stress-")
    mock = os.path.join(ROOT, "tests/Inputs/mock/cuda")
    with open(os.path.join(work, "compile_flags.txt"), "w") as f:
        f.write("\n".join(["-x", "cuda", "-nocudainc", "-nocudalib",
                           "--cuda-gpu-arch=sm_70", "-std=c++17", "-isystem",
                           mock, "--cuda-host-only"]) + "\n")
    with open(os.path.join(work, ".clangd"), "w") as f:
        f.write(open(os.path.join(ROOT, "tool/clangd/capture.clangd")).read())
    path = os.path.join(work, "edit.cu")
    open(path, "w").write(texts[0])
    uri = "file://" + path
    proc = subprocess.Popen([a.server], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    inbox = []
    threading.Thread(target=reader, args=(proc, inbox), daemon=True).start()
    send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "processId": os.getpid(), "rootUri": "file://" + work, "capabilities": {}}})
    send(proc, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
    send(proc, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": uri, "languageId": "cuda-cpp", "version": 1,
                         "text": texts[0]}}})

    def wait_for(pred, timeout):
        deadline = time.time() + timeout
        while time.time() < deadline and proc.poll() is None:
            for m in list(inbox):
                if pred(m):
                    return m
            time.sleep(0.02)
        return None

    end = time.time() + a.seconds
    version, tried, answered, slowest, next_id = 1, 0, 0, 0.0, 10
    text = texts[0]
    failure = None
    while time.time() < end:
        text = mutate(rng, rng.choice(texts) if rng.random() < 0.3 else text)
        if len(text) > 2_000_000:
            text = rng.choice(texts)
        version += 1
        tried += 1
        t0 = time.time()
        send(proc, {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"text": text}]}})
        v = version
        got = wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                       and m["params"].get("version") == v, a.answer_timeout)
        if got is None:
            failure = "no diagnostics for version %d (%d bytes)" % (v, len(text))
            break
        answered += 1
        slowest = max(slowest, time.time() - t0)
        if tried % 5 == 0:
            next_id += 1
            i = next_id
            send(proc, {"jsonrpc": "2.0", "id": i, "method": "textDocument/documentSymbol",
                        "params": {"textDocument": {"uri": uri}}})
            if wait_for(lambda m: m.get("id") == i, a.answer_timeout) is None:
                failure = "no answer to documentSymbol after version %d" % v
                break
        inbox.clear()
    alive = proc.poll() is None
    if alive:
        send(proc, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        send(proc, {"jsonrpc": "2.0", "method": "exit"})
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
    else:
        failure = failure or "server died (status %s)" % proc.returncode
        if failure.startswith("no "):
            failure += "; server died (status %s)" % proc.returncode
        open(os.path.join(work, "last-buffer.cu"), "w").write(text)
        failure += "; last buffer kept in %s/last-buffer.cu" % work
    print("lsp_stress: %d buffers tried, %d answered, slowest answer %.1f s, %s"
          % (tried, answered, slowest, "server alive" if not failure else failure))
    return 1 if failure else 0


if __name__ == "__main__":
    sys.exit(main())
