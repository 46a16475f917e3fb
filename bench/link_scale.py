#!/usr/bin/env python3
"""The link step's growth: `capture-lint link` over 1k to 10k summaries.

Summarizes a few template translation units with `capture-lint summarize`
(the test mocks for CUDA, so it is quick), each defining functions that
call functions of the next TU (some synchronize, allocate, or call on), and
every eighth a capture region calling into the next TU. The templates name
their own TU and the next by five-character placeholders; summary N is a
template's summary with the placeholders replaced by N's five-digit number
(same length, so every offset stays right): real summaries, one per TU, whose
calls chain across the whole program. Then, for each size, one
`capture-lint link @list` on one core, reporting wall and CPU time, peak
memory, the summaries' size per TU and the findings, and the growth from the
smallest size to the largest (near linear: ratio of times about the ratio
of sizes). Targets (issue 30): 10k TUs linked in under 10 s and 1 GB.
Then a Python program of --python-lines lines (modules of about 500 lines
in one package, every eighth opening a region that calls into the next,
whose calls go on from module to module), as Python summaries: one link.

  bench/link_scale.py [--sizes 1000,2000,5000,10000] [--build BUILD_DIR]
                      [--keep DIR]
"""
import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MOCK = ["-x", "cuda", "-nocudainc", "-nocudalib", "--cuda-gpu-arch=sm_70",
        "-std=c++17", "-isystem",
        os.path.join(ROOT, "tests", "Inputs", "mock", "cuda")]

# QQQQA: this TU's number; QQQQB: the next TU's.
PLAIN = """#include <cuda_runtime.h>
void fn_QQQQB_step(cudaStream_t s, float **p, int n);
void fn_QQQQB_flush(cudaStream_t s);
void fn_QQQQA_flush(cudaStream_t s) {
  if (s)
    cudaStreamSynchronize(s);
}
void fn_QQQQA_grow(float **p, int n) { cudaMalloc(p, n * sizeof(float)); }
void fn_QQQQA_step(cudaStream_t s, float **p, int n) {
  if (n > 1)
    fn_QQQQB_step(s, p, n - 1);
  fn_QQQQA_grow(p, n);
  fn_QQQQB_flush(s);
}
"""
REGION = PLAIN + """void fn_QQQQA_capture(cudaStream_t s, float **p, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  fn_QQQQB_step(s, p, 2);
  cudaStreamEndCapture(s, g);
}
"""


# A Python module of about 500 lines: QQQQA is its number, QQQQB the next's.
# Every eighth opens a capture region calling into the next module, whose
# step calls on (every fourth synchronizes).
PY_HELPERS = "".join(
    "def helper_%d(x, scale):\n    y = x * scale\n    y = y + %d\n"
    "    return torch.relu(y)\n\n\n" % (i, i) for i in range(96))
PY_PLAIN = ("import torch\n\nfrom . import m_QQQQB as nxt\n\n\n" + PY_HELPERS +
            "def step_QQQQA(x, n):\n    if n > 0:\n"
            "        x = nxt.step_QQQQB(x, n - 1)\n"
            "    return helper_3(x, 2.0)\n")
PY_SYNC = PY_PLAIN.replace("    return helper_3(x, 2.0)\n",
                           "    torch.cuda.synchronize()\n"
                           "    return helper_3(x, 2.0)\n")
PY_REGION = PY_PLAIN + ("\n\ndef capture_QQQQA(x):\n"
                        "    g = torch.cuda.CUDAGraph()\n"
                        "    with torch.cuda.graph(g):\n"
                        "        y = nxt.step_QQQQB(x, 3)\n"
                        "    return g, y\n")


def summarize_python_templates(binary, tmp):
    out = {}
    pkg = os.path.join(tmp, "pypkg")
    os.makedirs(pkg, exist_ok=True)
    for name, text in (("plain", PY_PLAIN), ("sync", PY_SYNC),
                       ("region", PY_REGION), ("init", "")):
        src = os.path.join(pkg, "__init__.py" if name == "init" else
                           "m_QQQQA.py")
        with open(src, "w") as f:
            f.write(text)
        summary = os.path.join(tmp, "py-" + name + ".sum")
        subprocess.run([binary, "summarize", "--quiet",
                        os.path.relpath(src, tmp), "-o", summary],
                       cwd=tmp, check=True)
        with open(summary) as f:
            out[name] = f.read()
        if name != "init":
            os.remove(src)
    return out


def write_python_summaries(templates, lines, out):
    per_module = PY_PLAIN.count("\n")
    n = max(2, lines // per_module)
    init = os.path.join(out, "init.sum")
    with open(init, "w") as f:
        f.write(templates["init"])
    listing, _ = write_renamed(
        templates, n, out, "m_",
        lambda i: "region" if i % 8 == 0 else "sync" if i % 4 == 1 else
        "plain", first=[init])
    return listing, n * per_module, n + 1


def bench_python(binary, tmp, lines):
    templates = summarize_python_templates(binary, tmp)
    out = os.path.join(tmp, "py%d" % lines)
    os.makedirs(out, exist_ok=True)
    listing, total, modules = write_python_summaries(templates, lines, out)
    wall, cpu, rss, line, rc = link(binary, listing, out)
    if rc not in (0, 1):
        sys.exit("link failed on the Python summaries: %s" % line)
    print("Python: %d lines in %d modules: link %6.2f s wall %6.2f s CPU, "
          "peak %7.1f MB; %s" % (total, modules, wall, cpu, rss, line))


def summarize_templates(binary, tmp):
    out = {}
    for name, text in (("plain", PLAIN), ("region", REGION)):
        src = os.path.join(tmp, "tu_QQQQA.cu")
        with open(src, "w") as f:
            f.write(text)
        summary = os.path.join(tmp, name + ".sum")
        subprocess.run([binary, "summarize", "--quiet", "tu_QQQQA.cu", "-o",
                        summary, "--"] + MOCK, cwd=tmp, check=True)
        with open(summary) as f:
            out[name] = f.read()
        os.remove(src)
    return out


def write_summaries(templates, n, out):
    return write_renamed(templates, n, out, "tu_",
                         lambda i: "region" if i % 8 == 0 else "plain")


def write_renamed(templates, n, out, prefix, kind_of, first=()):
    """Summaries 0..n-1, each the template kind_of(i) names with its own
    number for QQQQA and the next's for QQQQB, and a listing of them (after
    \p first); returns the listing and their size in bytes."""
    paths = list(first)
    for i in range(n):
        text = templates[kind_of(i)].replace("QQQQA", "%05d" % i).replace(
            "QQQQB", "%05d" % ((i + 1) % n))
        path = os.path.join(out, "%s%05d.sum" % (prefix, i))
        with open(path, "w") as f:
            f.write(text)
        paths.append(path)
    listing = os.path.join(out, "list")
    with open(listing, "w") as f:
        f.write("\n".join(paths) + "\n")
    return listing, sum(os.path.getsize(p) for p in paths)


def link(binary, listing, cwd):
    cmd = ["/usr/bin/time", "-f", "%e %U %S %M", binary, "link",
           "--format", "json", "-o", os.path.join(cwd, "report.json"),
           "@" + listing]
    r = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    wall, user, sys_, rss = r.stderr.strip().splitlines()[-1].split()
    summary = [l for l in r.stderr.splitlines()
               if l.startswith("capture-lint: ") and "analysed" in l]
    return (float(wall), float(user) + float(sys_), int(rss) / 1024.0,
            summary[-1] if summary else r.stderr.strip()[-200:], r.returncode)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1000,2000,5000,10000")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--keep")
    ap.add_argument("--python-lines", type=int, default=1000000,
                    help="the Python program linked (0: none)")
    a = ap.parse_args()
    binary = os.path.join(a.build, "tool", "capture-lint", "capture-lint")
    sizes = [int(s) for s in a.sizes.split(",")]
    tmp = a.keep or tempfile.mkdtemp(prefix="capture-lint-link-")
    os.makedirs(tmp, exist_ok=True)
    try:
        templates = summarize_templates(binary, tmp)
        rows = []
        for n in sizes:
            out = os.path.join(tmp, "n%d" % n)
            os.makedirs(out, exist_ok=True)
            listing, size = write_summaries(templates, n, out)
            wall, cpu, rss, line, rc = link(binary, listing, out)
            if rc not in (0, 1):
                sys.exit("link failed on %d summaries: %s" % (n, line))
            rows.append((n, wall, cpu, rss, size))
            print("%6d TUs: link %6.2f s wall %6.2f s CPU, peak %7.1f MB, "
                  "summaries %5.1f KB/TU; %s" % (
                      n, wall, cpu, rss, size / n / 1024.0, line))
        if len(rows) > 1:
            (n0, _, c0, r0, _), (n1, _, c1, r1, _) = rows[0], rows[-1]
            print("growth %d -> %d TUs (%.1fx): CPU %.1fx, memory %.1fx" % (
                n0, n1, n1 / n0, c1 / c0, r1 / r0))
        if a.python_lines:
            bench_python(binary, tmp, a.python_lines)
    finally:
        if not a.keep:
            shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
