#!/usr/bin/env python3
"""capture-probe's command line: usage errors, bad input, exit codes.
usage: check_cli.py CAPTURE_PROBE"""
import json
import os
import subprocess
import sys
import tempfile

probe = sys.argv[1]
failures = []


def run(*args, **kw):
    return subprocess.run([probe, *args], capture_output=True, text=True,
                          timeout=60, **kw)


def expect(args, code, stderr_has=None, stdout_has=None, cwd=None):
    p = run(*args, cwd=cwd)
    what = " ".join(args) or "(no arguments)"
    if p.returncode != code:
        failures.append(f"{what}: exit {p.returncode}, expected {code}\n{p.stderr}")
    if stderr_has and stderr_has not in p.stderr:
        failures.append(f"{what}: stderr lacks {stderr_has!r}: {p.stderr!r}")
    if stdout_has and stdout_has not in p.stdout:
        failures.append(f"{what}: stdout lacks {stdout_has!r}")
    return p


with tempfile.TemporaryDirectory() as tmp:
    expect([], 2, "no command given")
    expect(["--help"], 0, stdout_has="capture-probe run [options] -- PROGRAM")
    expect(["--version"], 0, stdout_has="capture-probe ")
    expect(["frobnicate"], 2, "unknown command 'frobnicate'")
    expect(["run", "--bogus", "--", "true"], 2, "unknown option '--bogus'")
    expect(["run"], 2, "no program to run")
    expect(["run", "--report"], 2, "--report needs a file name")
    expect(["run", "--fail-on", "allocation,bogus", "--", "true"], 2,
           "unknown class 'bogus'")
    expect(["run", "--backend", "opencl", "--", "true"], 2,
           "--backend must be 'cuda' or 'hip'")
    expect(["run", "--library", "/no/such/lib.so", "--", "true"], 2,
           "cannot read the probe library '/no/such/lib.so'")
    expect(["run", "--catalog", "/no/such.json", "--", "true"], 2,
           "/no/such.json")
    bad = os.path.join(tmp, "bad.json")
    with open(bad, "w") as f:
        f.write("{ not json")
    expect(["run", "--catalog", bad, "--", "true"], 2, "bad.json")
    expect(["run", "--report", os.path.join(tmp, "r.json"), "--",
            "/no/such/program"], 2, "cannot run '/no/such/program'")
    expect(["run", "--report", "/no/such/dir/r.json", "--", "true"], 2,
           "cannot write '/no/such/dir/r.json'")
    expect(["show"], 2, "'show' takes one report file")
    expect(["show", "/no/such/report.json"], 2,
           "'/no/such/report.json' cannot be read")
    expect(["show", bad], 2, "not valid JSON")

    # A program that never touches CUDA: an empty report that says so, and
    # the program's own exit status.
    report = os.path.join(tmp, "r.json")
    expect(["run", "--quiet", "--report", report, "--fail-on", "any", "--",
            "sh", "-c", "exit 3"], 3)
    r = json.load(open(report))
    if r["format"] != "capture-probe-report" or r["captures"] != [] or \
            r["exit_status"] != 3 or "no event log" not in r.get("note", ""):
        failures.append(f"empty report wrong: {r}")
    expect(["show", report], 0, stdout_has="no capture was observed")
    # Signals: 128 + N, and the report still written.
    expect(["run", "--quiet", "--report", report, "--", "sh", "-c", "kill -TERM $$"], 143)
    if "killed by signal 15" not in json.load(open(report)).get("note", ""):
        failures.append("signal not noted")
    # --fail-on lifecycle is accepted (the four lifecycle classes).
    expect(["run", "--quiet", "--report", report, "--fail-on",
            "lifecycle,never-launched", "--", "true"], 0)
    # compare: usage, bad input, and two reports of ranks.
    expect(["compare", report], 2, "'compare' takes two or more reports")
    expect(["compare", report, bad], 2, "not valid JSON")
    def rank(name, kernels):
        path = os.path.join(tmp, name)
        caps = [{"id": i + 1, "begin": {"seq": 1, "api": "cudaStreamBeginCapture",
                                        "result": 0}, "succeeded": True,
                 "collectives": k} for i, k in enumerate(kernels)]
        json.dump({"format": "capture-probe-report", "version": 1,
                   "captures": caps}, open(path, "w"))
        return path
    a = rank("a.json", [["ncclDevKernel_AllReduce"]])
    b = rank("b.json", [["ncclDevKernel_AllReduce"]])
    c = rank("c.json", [["ncclDevKernel_AllGather"]])
    expect(["compare", a, b], 0, stdout_has="same collectives in the same order")
    expect(["compare", a, c], 1, stdout_has="divergence at the 1st graph")
    # Special files given to show: an error naming them, never an abort or a
    # block (issue 24, item 6).
    special = os.path.join(tmp, "dir.json")
    os.mkdir(special)
    expect(["show", special], 2,
           "'" + special + "' is a directory, not a regular file")
    fifo = os.path.join(tmp, "fifo.json")
    os.mkfifo(fifo)
    expect(["show", fifo], 2, "'" + fifo + "' is a FIFO, not a regular file")
    expect(["run", "--catalog", fifo, "--", "true"], 2,
           "catalog '" + fifo + "' is a FIFO, not a regular file")
    # One torn line in an event log loses only itself: the report is written
    # from the other lines, the logs are kept, and the warning names a file
    # that exists (issue 24, item 9).
    fake = os.path.join(tmp, "fake.so")
    open(fake, "w").write("not a library")
    prog = os.path.join(tmp, "prog.py")
    open(prog, "w").write(
        "import os\n"
        "p = os.environ['CAPTURE_PROBE_LOG'].replace('%p', str(os.getpid()))\n"
        "L = [b'{\"seq\":1,\"thread\":7,\"kind\":\"begin\",\"api\":\"cudaStreamBeginCapture\",\"result\":0,\"stream\":16,\"mode\":\"global\",\"to_graph\":true}',\n"
        "     b'{\"seq\":2,\"thread\":7,\"kind\":\"call\",\"api\":\"cudaMalloc\",\"result\":900,\"result_name\":\"cudaErrorStreamCaptureUnsupported\"}',\n"
        "     b'{\"seq\":3,\"thread\":7,\"kind\":\"end\",\"api\":\"cudaStreamEndCapture\",\"result\":901,\"stream\":16,\"graph_returned\":false}']\n"
        "open(p, 'wb').write(L[0] + b'\\n' + L[1][:40] + b'\\0' * 64 + L[2] + b'\\n' + L[1] + b'\\n')\n")
    logs_tmp = os.path.join(tmp, "logs")
    os.mkdir(logs_tmp)
    torn = os.path.join(tmp, "torn.json")
    p = subprocess.run([probe, "run", "--no-symbolize", "--library", fake,
                        "--report", torn, "--", sys.executable, prog],
                       capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, TMPDIR=logs_tmp))
    kept = [os.path.join(d, f) for d, _, fs in os.walk(logs_tmp) for f in fs
            if f.endswith(".jsonl")]
    if p.returncode != 0 or not os.path.exists(torn):
        failures.append(f"torn line: exit {p.returncode}, report written: "
                        f"{os.path.exists(torn)}\n{p.stderr}")
    elif len(json.load(open(torn))["captures"]) != 1:
        failures.append(f"torn line: the report lacks the capture: {open(torn).read()}")
    if "1 malformed line skipped, the first at " not in p.stderr or \
            len(kept) != 1 or kept[0] not in p.stderr:
        failures.append(f"torn line: warning or kept log wrong ({kept}): {p.stderr}")
    # The default report path is in the working directory.
    expect(["run", "--quiet", "--", "true"], 0, cwd=tmp)
    if not os.path.exists(os.path.join(tmp, "capture-probe-report.json")):
        failures.append("no default report written")

    # --without-cupti: the program runs with CAPTURE_PROBE_CALLS=wrappers,
    # and a driver call the runtime made is named after the runtime call on
    # its stack (a stand-in libcudart with a cudaMalloc), classified as that.
    rt_src = os.path.join(tmp, "rt.c")
    open(rt_src, "w").write(
        "int cudaMallocHelper(void **p, unsigned long n);\n"
        "int cudaMalloc(void **p, unsigned long n) {\n"
        "  return cudaMallocHelper(p, n) + 1;\n}\n"
        "int cudaMallocHelper(void **p, unsigned long n) {\n"
        "  *p = 0; return (int)n;\n}\n"
        "int cudaFree(void *p) {\n"
        "  return cudaMallocHelper(&p, 1) + 2;\n}\n")
    rt = os.path.join(tmp, "libcudart.so.99")
    cc = subprocess.run(["cc", "-shared", "-fPIC", "-O0", "-o", rt, rt_src],
                        capture_output=True, text=True)
    sym = subprocess.run(["nm", rt], capture_output=True, text=True).stdout
    addr = [int(l.split()[0], 16) for l in sym.splitlines()
            if l.endswith(" cudaMalloc")]
    free_addr = [int(l.split()[0], 16) for l in sym.splitlines()
                 if l.endswith(" cudaFree")]
    if cc.returncode != 0 or not addr or not free_addr:
        failures.append(f"--without-cupti: cannot build the stand-in runtime: "
                        f"{cc.stderr} {sym}")
    else:
        seen_env = os.path.join(tmp, "calls-env")
        wprog = os.path.join(tmp, "wrapped.py")
        # Its stack names it; a call without a stack made at the same place
        # in the runtime (caller) is named after it; one made elsewhere is
        # not, nor one made where two runtime calls were seen.
        call = ('{"seq":2,"thread":7,"kind":"call","api":"cuMemAlloc_v2",'
                '"result":900,"result_name":"cudaErrorStreamCaptureUnsupported",'
                '"by_runtime":true,"caller":4096,"frames":["%s+0x%x","/no/such/app+0x10"]}'
                % (rt, addr[0] + 4))
        same = ('{"seq":3,"thread":7,"kind":"call","api":"cuMemAlloc_v2",'
                '"result":900,"by_runtime":true,"caller":4096}')
        other = ('{"seq":4,"thread":7,"kind":"call","api":"cuMemAlloc_v2",'
                 '"result":900,"by_runtime":true,"caller":8192}')
        shared = [('{"seq":%d,"thread":7,"kind":"call","api":"cuMemAlloc_v2",'
                   '"result":900,"by_runtime":true,"caller":12288%s}'
                   % (seq, frames)) for seq, frames in (
                       (5, ',"frames":["%s+0x%x"]' % (rt, addr[0] + 4)),
                       (6, ',"frames":["%s+0x%x"]' % (rt, free_addr[0] + 4)),
                       (7, ""))]
        open(wprog, "w").write(
            "import os\n"
            f"open({seen_env!r}, 'w').write(os.environ.get('CAPTURE_PROBE_CALLS', ''))\n"
            "p = os.environ['CAPTURE_PROBE_LOG'].replace('%p', str(os.getpid()))\n"
            "open(p, 'w').write('\\n'.join([\n"
            "  '{\"seq\":1,\"thread\":7,\"kind\":\"begin\",\"api\":\"cuStreamBeginCapture_v2\",\"result\":0,\"stream\":16,\"mode\":\"global\"}',\n"
            f"  {call!r}, {same!r}, {other!r}, {shared[0]!r}, {shared[1]!r}, {shared[2]!r},\n"
            "  '{\"seq\":8,\"thread\":7,\"kind\":\"end\",\"api\":\"cuStreamEndCapture\",\"result\":901,\"stream\":16}']) + '\\n')\n")
        for symbolize, apis in ((True, ["cudaMalloc"] * 3 + ["cudaFree"] +
                                 ["cuMemAlloc_v2"] * 2),
                                (False, ["cuMemAlloc_v2"] * 6)):
            named = os.path.join(tmp, f"named-{symbolize}.json")
            p = run("run", "--without-cupti", "--library", fake, "--report",
                    named, *([] if symbolize else ["--no-symbolize"]), "--",
                    sys.executable, wprog)
            calls = (json.load(open(named))["captures"][0]["calls"]
                     if os.path.exists(named) else [])
            seen = sorted(c["api"] for c in calls for _ in range(c.get("repeats", 1)))
            if p.returncode != 0 or seen != sorted(apis) or \
                    symbolize and "allocation" not in calls[0].get("classes", []):
                failures.append(f"--without-cupti (symbolize {symbolize}): "
                                f"exit {p.returncode}, calls {calls}\n{p.stderr}")
        if open(seen_env).read() != "wrappers":
            failures.append("--without-cupti: the program did not see "
                            "CAPTURE_PROBE_CALLS=wrappers")
        # Which way the program's calls are seen: without CUPTI by default;
        # --with-cupti, or CAPTURE_PROBE_CALLS in the environment where no
        # option says.
        for flags, env, want in (([], None, "wrappers"),
                                 (["--with-cupti"], None, "cupti"),
                                 (["--without-cupti"], "cupti", "wrappers"),
                                 (["--with-cupti"], "wrappers", "cupti"),
                                 ([], "cupti", "cupti"),
                                 ([], "wrappers", "wrappers")):
            os.remove(seen_env)
            p = subprocess.run(
                [probe, "run", "--quiet", "--library", fake, *flags, "--report",
                 os.path.join(tmp, "calls.json"), "--", sys.executable, wprog],
                capture_output=True, text=True, timeout=60,
                env=dict(os.environ, **({"CAPTURE_PROBE_CALLS": env} if env else {})))
            seen = open(seen_env).read() if os.path.exists(seen_env) else None
            if p.returncode != 0 or seen != want:
                failures.append(f"run {flags} with CAPTURE_PROBE_CALLS={env}: "
                                f"exit {p.returncode}, the program saw {seen!r}, "
                                f"expected {want!r}\n{p.stderr}")
        p = subprocess.run([probe, "run", "--library", fake, "--", "true"],
                           capture_output=True, text=True, timeout=60,
                           env=dict(os.environ, CAPTURE_PROBE_CALLS="both"))
        if p.returncode != 2 or "CAPTURE_PROBE_CALLS='both'" not in p.stderr:
            failures.append(f"CAPTURE_PROBE_CALLS=both: exit {p.returncode}, "
                            f"{p.stderr!r}")
    expect(["run", "--with-cupti", "--without-cupti", "--", "true"], 2,
           "--with-cupti and --without-cupti contradict each other")
    for flag in ("--without-cupti", "--with-cupti"):
        expect(["run", "--backend", "hip", flag, "--", "true"], 2,
               "--with-cupti and --without-cupti are for the cuda backend")

for f in failures:
    print("FAIL:", f)
print(f"capture-probe command line: {len(failures)} failures")
sys.exit(1 if failures else 0)
