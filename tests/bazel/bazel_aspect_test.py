#!/usr/bin/env python3
"""The Bazel aspect (tool/bazel/capture_lint.bzl), offline, sandboxed, with a
real remote cache (issue 30, item 4).

Generates a workspace from the whole-program test inputs (region.cu calls
into step.cu, which calls into logs.cu; three cc_library targets, CUDA
sources as .cu.cc with `-x cuda` copts and the mock CUDA header as a
cc_library), and a capture_lint repository (the .bzl and BUILD of
tool/bazel, a link to the capture-lint under test). Starts nginx with a
WebDAV location on loopback as Bazel's HTTP cache, then:

  1. builds //:lint in checkout A, sandboxed: the report, SARIF and exit
     code hold the two cross-file findings the lint run gives, and the one
     from a py_library's region into a cc_library's operator kernel;
  2. builds it in checkout B, a copy at another path with its own output
     base: every summarize and link action is a remote cache hit;
  3. edits one source in B and builds again: exactly one summarize action
     and the link actions run, the rest come from the cache;
and stops nginx. Prints the numbers (actions run, cache hits) and exits 1
on any difference. Skips (exit 77, a message) when bazel or nginx is
missing.

  bazel_aspect_test.py REPO_ROOT CAPTURE_LINT
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

SKIP = 77


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


# Bazel 4's bazel_tools load these from @rules_cc; Debian's bazel-rules-cc is
# too new for it, so a local rules_cc forwards them to the native rules.
RULES_CC_RULES = ("cc_binary", "cc_import", "cc_library", "cc_proto_library",
                  "cc_test", "cc_toolchain", "cc_toolchain_suite",
                  "fdo_prefetch_hints", "fdo_profile", "objc_import",
                  "objc_library")
RULES_CC_DEFS = '"""Forwards to the native rules."""\n' + "".join(
    "def %s(**kwargs):\n    native.%s(**kwargs)\n" % (r, r)
    for r in RULES_CC_RULES)

CUDA_COPTS = ('["-x", "cuda", "-nocudainc", "-nocudalib", '
              '"--cuda-gpu-arch=sm_70", "-std=c++17"]')

# The CUDA libraries: (name, source, headers, deps). region.cu calls into
# step.cu, which calls into logs.cu; roles/step.cu's regions are opened by
# the opener roles/graph.cu defines.
LIBRARIES = [
    ("logs", "logs.cu.cc", ["helpers.h"], [":cuda"]),
    ("step", "step.cu.cc", [], [":logs"]),
    ("region", "region.cu.cc", [], [":step"]),
    ("graph", "roles/graph.cu.cc", ["roles/graph.h"], [":cuda"]),
    ("recorder", "roles/step.cu.cc", [], [":graph"]),
]


# A Python package whose region calls an operator that a C++ library
# binds with TORCH_LIBRARY_IMPL (tests/lit/cli/Inputs/native-link).
PYTHON_PACKAGE = ["pkg/__init__.py", "pkg/runner.py", "pkg/util.py"]


def build_file():
    text = ['load("@capture_lint//:capture_lint.bzl", "capture_lint_report")',
            "",
            'cc_library(name = "cuda", hdrs = '
            'glob(["third_party/cuda/**/*.h"]), '
            'includes = ["third_party/cuda"])',
            'cc_library(name = "torch", hdrs = '
            'glob(["third_party/torch/**/*.h"]), '
            'includes = ["third_party/torch"], deps = [":cuda"])',
            'cc_library(name = "ops", srcs = ["ext/ops.cc"], '
            'copts = ["-std=c++17"], deps = [":torch"])',
            'py_library(name = "model", srcs = %s)' %
            json.dumps(PYTHON_PACKAGE)]
    for name, src, hdrs, deps in LIBRARIES:
        text.append('cc_library(name = "%s", srcs = ["%s"], hdrs = %s, '
                    'copts = %s, deps = %s)' % (name, src, json.dumps(hdrs),
                                                CUDA_COPTS, json.dumps(deps)))
    text.append('capture_lint_report(name = "lint", '
                'deps = [":region", ":recorder", ":model", ":ops"])')
    return "\n\n".join(text) + "\n"


def make_workspace(root, ws, tools_repo):
    inputs = os.path.join(root, "tests", "lit", "cli", "Inputs",
                          "wholeprogram")
    for name in ("region", "step", "logs"):
        shutil.copy(os.path.join(inputs, name + ".cu"),
                    os.path.join(ws, name + ".cu.cc"))
    shutil.copy(os.path.join(inputs, "helpers.h"), ws)
    roles = os.path.join(root, "tests", "lit", "cli", "Inputs", "roles")
    os.makedirs(os.path.join(ws, "roles"))
    for name in ("graph", "step"):
        shutil.copy(os.path.join(roles, name + ".cu"),
                    os.path.join(ws, "roles", name + ".cu.cc"))
    shutil.copy(os.path.join(roles, "graph.h"), os.path.join(ws, "roles"))
    shutil.copytree(os.path.join(root, "tests", "Inputs", "mock", "cuda"),
                    os.path.join(ws, "third_party", "cuda"))
    shutil.copytree(os.path.join(root, "tests", "Inputs", "mock", "torch"),
                    os.path.join(ws, "third_party", "torch"))
    native = os.path.join(root, "tests", "lit", "cli", "Inputs",
                          "native-link")
    for name in PYTHON_PACKAGE:
        write(os.path.join(ws, name), open(os.path.join(native, name)).read())
    write(os.path.join(ws, "ext", "ops.cc"),
          open(os.path.join(native, "ext", "ops.cpp")).read())
    write(os.path.join(ws, "BUILD"), build_file())
    write(os.path.join(ws, "WORKSPACE"),
          'workspace(name = "capture_lint_demo")\n'
          'local_repository(name = "rules_java", '
          'path = "/usr/share/bazel/rules/java")\n'
          'local_repository(name = "rules_cc", path = "%s")\n'
          'local_repository(name = "capture_lint", path = "%s")\n' %
          (os.path.join(os.path.dirname(tools_repo), "rules_cc"), tools_repo))


def make_repositories(root, binary, base):
    tools = os.path.join(base, "capture_lint")
    shutil.copytree(os.path.join(root, "tool", "bazel"), tools)
    os.symlink(os.path.abspath(binary), os.path.join(tools, "capture-lint"))
    rules_cc = os.path.join(base, "rules_cc")
    write(os.path.join(rules_cc, "WORKSPACE"), 'workspace(name = "rules_cc")\n')
    write(os.path.join(rules_cc, "BUILD"), "")
    write(os.path.join(rules_cc, "cc", "defs.bzl"), RULES_CC_DEFS)
    write(os.path.join(rules_cc, "cc", "BUILD"),
          'alias(name = "toolchain_type", actual = '
          '"@bazel_tools//tools/cpp:toolchain_type", '
          'visibility = ["//visibility:public"])\n')
    return tools


def start_nginx(base, port):
    cache = os.path.join(base, "cache")
    os.makedirs(cache)
    conf = os.path.join(base, "nginx.conf")
    write(conf, """
worker_processes 1;
daemon off;
user root;
pid %(b)s/nginx.pid;
error_log %(b)s/nginx.err;
events {}
http {
  access_log off;
  client_body_temp_path %(b)s/body;
  proxy_temp_path %(b)s/proxy;
  fastcgi_temp_path %(b)s/fastcgi;
  uwsgi_temp_path %(b)s/uwsgi;
  scgi_temp_path %(b)s/scgi;
  server {
    listen 127.0.0.1:%(p)d;
    location / {
      root %(c)s;
      dav_methods PUT;
      create_full_put_path on;
      client_max_body_size 1g;
    }
  }
}
""" % {"b": base, "p": port, "c": cache})
    proc = subprocess.Popen(["nginx", "-c", conf, "-p", base],
                            stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    for _ in range(50):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    sys.exit("nginx did not start on 127.0.0.1:%d" % port)


def build(ws, user_root, port, log):
    cmd = ["bazel", "--output_user_root=" + user_root, "--max_idle_secs=120",
           "build",
           "--nosandbox_debug", "--spawn_strategy=sandboxed",
           "--incompatible_strict_action_env",
           "--remote_cache=http://127.0.0.1:%d" % port,
           "--execution_log_json_file=" + log, "//:lint"]
    r = subprocess.run(cmd, cwd=ws, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=600)
    if r.returncode != 0:
        print(r.stdout[-3000:])
        sys.exit("bazel build failed in %s" % ws)
    return read_log(log)


def read_log(log):
    """(mnemonic, remote cache hit) of each spawn in the execution log."""
    with open(log) as f:
        text = f.read()
    spawns = []
    decoder = json.JSONDecoder()
    i = 0
    while i < len(text):
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            break
        obj, i = decoder.raw_decode(text, i)
        spawns.append((obj.get("mnemonic", ""),
                       bool(obj.get("remoteCacheHit", False))))
    return spawns


def count(spawns, mnemonic, hit):
    return sum(1 for m, h in spawns if m == mnemonic and h == hit)


def shutdown(ws, user_root):
    subprocess.run(["bazel", "--output_user_root=" + user_root, "shutdown"],
                   cwd=ws, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


CHECKED = []


def check(cond, what, failures):
    print(("ok   " if cond else "FAIL ") + what)
    CHECKED.append(what)
    if not cond:
        failures.append(what)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    root, binary = sys.argv[1], sys.argv[2]
    for tool in ("bazel", "nginx"):
        if not shutil.which(tool):
            print("SKIP: %s is not installed (scripts/setup.sh installs "
                  "bazel-bootstrap, bazel-rules-java and nginx)" % tool)
            sys.exit(SKIP)
    base = tempfile.mkdtemp(prefix="capture-lint-bazel-")
    failures = []
    nginx = None
    a = os.path.join(base, "checkout-a", "demo")
    b = os.path.join(base, "elsewhere", "checkout-b", "demo")
    try:
        tools = make_repositories(root, binary, base)
        os.makedirs(a)
        make_workspace(root, a, tools)
        port = free_port()
        nginx = start_nginx(base, port)

        first = build(a, os.path.join(base, "out-a"), port,
                      os.path.join(base, "a.log"))
        summarized = count(first, "CaptureLintSummarize", False)
        linked = count(first, "CaptureLintLink", False)
        print("checkout A: %d summarize and %d link actions run" %
              (summarized, linked))
        check(summarized == 9 and linked == 2,
              "checkout A runs 9 summarize actions (5 CUDA, 1 C++, 3 "
              "Python) and 2 link actions", failures)
        bin_dir = os.path.join(a, "bazel-bin")
        with open(os.path.join(bin_dir, "lint.txt")) as f:
            report = f.read()
        with open(os.path.join(bin_dir, "lint.exit_code")) as f:
            code = f.read().strip()
        with open(os.path.join(bin_dir, "lint.sarif")) as f:
            sarif = json.load(f)
        check("region.cu.cc:6:3: error: call to 'launch_step' reaches "
              "'cudaMalloc' (logs.cu.cc:5)" in report,
              "the report holds the allocation three files down", failures)
        check("region.cu.cc:7:3: error: call to 'flush_logs' reaches "
              "'cudaStreamSynchronize' (logs.cu.cc:3)" in report,
              "the report holds the synchronization two files down",
              failures)
        check("step.cu.cc:12:3: error: 'cudaStreamSynchronize' waits for "
              "a stream to drain" in report and
              "step.cu.cc:10:3: note: capture of stream 's' begins with this "
              "call to 'begin_graph', mode global" in report,
              "roles from a dep: roles/step.cu.cc's region is opened by "
              "begin_graph, which roles/graph.cu.cc defines", failures)
        check("roles/graph.cu.cc:4:3: note: the capture begins here\n"
              "    4 |   cudaStreamBeginCapture(s, "
              "cudaStreamCaptureModeGlobal);\n" in report,
              "the region's last note points at the begin inside "
              "begin_graph, in a file the sandboxed action did not have",
              failures)
        check("pkg/runner.py:12:17: error: call to 'step' reaches "
              "'cudaDeviceSynchronize' (ops.cc:7)" in report and
              "ext/ops.cc:13:40: note: 'torch.ops.myext.step' runs "
              "'step_cuda', which TORCH_LIBRARY_IMPL(myext, CUDA) binds "
              "here" in report,
              "across languages: the py_library's region reaches the "
              "operator's CUDA kernel in the cc_library", failures)
        check(code == "1", "the exit code file says 1 (findings)", failures)
        found = len(sarif["runs"][0]["results"])
        check(found == report.count(": error: ") + report.count(
            ": warning: ") + report.count(": remark: "),
            "the SARIF report holds the findings the text report does "
            "(%d)" % found, failures)

        shutil.copytree(a, b, symlinks=True,
                        ignore=shutil.ignore_patterns("bazel-*"))
        second = build(b, os.path.join(base, "out-b"), port,
                       os.path.join(base, "b.log"))
        hits = count(second, "CaptureLintSummarize", True) + \
            count(second, "CaptureLintLink", True)
        ran = count(second, "CaptureLintSummarize", False) + \
            count(second, "CaptureLintLink", False)
        print("checkout B (another path, its own output base): %d remote "
              "cache hits, %d capture-lint actions run" % (hits, ran))
        check(hits == 11 and ran == 0,
              "checkout B: every summarize and link action a remote cache "
              "hit", failures)

        with open(os.path.join(b, "step.cu.cc"), "a") as f:
            f.write("\nvoid another_helper() {}\n")
        third = build(b, os.path.join(base, "out-b"), port,
                      os.path.join(base, "b2.log"))
        summarized = count(third, "CaptureLintSummarize", False)
        linked = count(third, "CaptureLintLink", False)
        print("after editing step.cu.cc: %d summarize and %d link actions "
              "run" % (summarized, linked))
        check(summarized == 1 and linked == 2,
              "one edit re-runs exactly one summarize and the link (its "
              "roles file is unchanged, so region.cu.cc's action is not "
              "re-run)", failures)
        with open(os.path.join(b, "roles", "graph.cu.cc"), "a") as f:
            f.write("\nvoid begin_graph_twice(cudaStream_t s) "
                    "{ begin_graph(s); }\n")
        fourth = build(b, os.path.join(base, "out-b"), port,
                       os.path.join(base, "b3.log"))
        summarized = count(fourth, "CaptureLintSummarize", False)
        print("after adding an opener to graph.cu.cc: %d summarize actions "
              "run" % summarized)
        check(summarized == 2,
              "a new role re-runs the defining file's action and its "
              "dependent's (roles/step.cu.cc)", failures)
    finally:
        for ws, out in ((a, "out-a"), (b, "out-b")):
            if os.path.isdir(ws):
                shutdown(ws, os.path.join(base, out))
        if nginx:
            nginx.terminate()
            nginx.wait()
        if os.environ.get("CAPTURE_LINT_BAZEL_KEEP"):
            print("kept: " + base)
        else:
            subprocess.run(["chmod", "-R", "u+w", base])
            shutil.rmtree(base, ignore_errors=True)
    print("%d passed, %d failed" % (len(CHECKED) - len(failures),
                                    len(failures)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
