#!/usr/bin/env python3
"""The probe changes nothing a program does, and both of its modes see the
same kernel launches: NVIDIA's samples that capture nothing (streams,
callbacks, zero-copy and managed memory, stream-ordered allocation,
priorities, cuBLAS, cuFFT, cuRAND, cuSPARSE, and programs calling the
driver API directly from a module they load) built from an export of
NVIDIA/cuda-samples (never committed), each run plain, under
`capture-probe run --with-cupti` and under `capture-probe run --without-cupti`
(the default).

For each program: every run's exit status and verdict words (passed,
failed, waived) must be those of the plain run, no report may hold a class
(none of them captures), and the two modes' counts of kernels launched
outside graphs must agree (a launch the wrappers miss, through an entry
point fetched where the probe does not look, shows up here), but for a
program whose work varies from run to run (VARYING). One program
is also built against the shared runtime (-cudart shared).

usage: check_transparency.py CAPTURE_PROBE SAMPLES_ROOT OUT_DIR
       check_transparency.py --folders   (the sample folders it needs)
"""
import concurrent.futures
import json
import os
import re
import subprocess
import sys

# (name, folder under Samples/, sources, nvcc flags and libraries,
#  fatbins the program loads: (kernel source, file name))
PROGRAMS = [
    ("asyncAPI", "0_Introduction/asyncAPI", ["asyncAPI.cu"], [], []),
    ("simpleStreams", "0_Introduction/simpleStreams", ["simpleStreams.cu"], [], []),
    ("simpleStreams-shared", "0_Introduction/simpleStreams", ["simpleStreams.cu"],
     ["-cudart", "shared"], []),
    ("simpleCallback", "0_Introduction/simpleCallback",
     ["simpleCallback.cu", "multithreading.cpp"], [], []),
    ("simpleZeroCopy", "0_Introduction/simpleZeroCopy", ["simpleZeroCopy.cu"], [], []),
    ("simpleHyperQ", "0_Introduction/simpleHyperQ", ["simpleHyperQ.cu"], [], []),
    ("simpleMultiCopy", "0_Introduction/simpleMultiCopy", ["simpleMultiCopy.cu"], [], []),
    ("matrixMul", "0_Introduction/matrixMul", ["matrixMul.cu"], [], []),
    ("UnifiedMemoryStreams", "0_Introduction/UnifiedMemoryStreams",
     ["UnifiedMemoryStreams.cu"], ["-Xcompiler", "-fopenmp", "-lgomp", "-lcublas"], []),
    ("streamOrderedAllocation", "2_Concepts_and_Techniques/streamOrderedAllocation",
     ["streamOrderedAllocation.cu"], [], []),
    ("StreamPriorities", "3_CUDA_Features/StreamPriorities", ["StreamPriorities.cu"], [], []),
    ("simpleCUBLAS", "4_CUDA_Libraries/simpleCUBLAS", ["simpleCUBLAS.cpp"], ["-lcublas"], []),
    ("simpleCUFFT", "4_CUDA_Libraries/simpleCUFFT", ["simpleCUFFT.cu"], ["-lcufft"], []),
    ("MersenneTwisterGP11213", "4_CUDA_Libraries/MersenneTwisterGP11213",
     ["MersenneTwister.cpp"], ["-lcurand"], []),
    ("conjugateGradient", "4_CUDA_Libraries/conjugateGradient", ["main.cpp"],
     ["-lcublas", "-lcusparse"], []),
    ("vectorAddDrv", "0_Introduction/vectorAddDrv", ["vectorAddDrv.cpp"], ["-lcuda"],
     [("vectorAdd_kernel.cu", "vectorAdd_kernel64.fatbin")]),
    ("matrixMulDrv", "0_Introduction/matrixMulDrv", ["matrixMulDrv.cpp"], ["-lcuda"],
     [("matrixMul_kernel.cu", "matrixMul_kernel64.fatbin")]),
    ("simpleDrvRuntime", "0_Introduction/simpleDrvRuntime", ["simpleDrvRuntime.cpp"],
     ["-lcuda"], [("vectorAdd_kernel.cu", "vectorAdd_kernel64.fatbin")]),
    ("vectorAddMMAP", "0_Introduction/vectorAddMMAP",
     ["vectorAddMMAP.cpp", "multidevicealloc_memmap.cpp"], ["-lcuda"],
     [("vectorAdd_kernel.cu", "vectorAdd_kernel64.fatbin")]),
]
# Programs whose kernel counts vary from run to run: their counts are shown,
# not compared.
VARYING = {"UnifiedMemoryStreams": "its task sizes are seeded with time(NULL)"}
if sys.argv[1:] == ["--folders"]:
    print("\n".join(sorted({rel for _, rel, *_ in PROGRAMS})))
    sys.exit(0)
if len(sys.argv) != 4:
    sys.exit(__doc__)
probe, root, out_dir = sys.argv[1:4]
build = os.path.join(out_dir, "transparency-build")
os.makedirs(build, exist_ok=True)
MODES = {"cupti": ["--with-cupti"], "without-cupti": ["--without-cupti"]}
VERDICT = re.compile(r"(?i)\b(passed|pass|failed|fail|waived)\b")


def build_one(spec):
    name, rel, sources, flags, fatbins = spec
    src = os.path.join(root, "Samples", rel)
    out = os.path.join(build, name)
    os.makedirs(out, exist_ok=True)
    common = ["nvcc", "-O2", "-arch=sm_90", "-std=c++17", "-I",
              os.path.join(root, "Common")]
    steps = [common + ["-fatbin", "-o", os.path.join(out, fatbin),
                       os.path.join(src, kernel)] for kernel, fatbin in fatbins]
    steps.append(common + ["-o", os.path.join(out, name)] +
                 [os.path.join(src, s) for s in sources] + flags)
    for cmd in steps:
        b = subprocess.run(cmd, capture_output=True, text=True)
        if b.returncode != 0:
            return name, f"build failed: {' '.join(cmd)}\n{b.stderr[-1500:]}"
    return name, None


def verdict(text):
    return sorted({w.lower() for w in VERDICT.findall(text)})


def run_one(spec):
    name = spec[0]
    exe_dir = os.path.join(build, name)
    exe = os.path.join(exe_dir, name)
    lines, problems = [], []
    plain = subprocess.run([exe], capture_output=True, text=True, timeout=300,
                           cwd=exe_dir)
    expected = (plain.returncode, verdict(plain.stdout))
    lines.append(f"{name:24s} plain: exit {plain.returncode}, verdict {expected[1]}")
    outside = {}
    for mode, flags in MODES.items():
        report = os.path.join(out_dir, f"transparency-{name}-{mode}.json")
        p = subprocess.run([probe, "run", *flags, "--report", report, "--", exe],
                           capture_output=True, text=True, timeout=300, cwd=exe_dir)
        got = (p.returncode, verdict(p.stdout))
        r = json.load(open(report)) if os.path.exists(report) else {}
        cover = r.get("graph_coverage") or {}
        outside[mode] = cover.get("kernels_outside_graphs")
        lines.append(f"{'':24s} {mode}: exit {p.returncode}, verdict {got[1]}, "
                     f"classes {r.get('classes')}, kernels outside graphs "
                     f"{outside[mode]}")
        if got != expected:
            problems.append(f"{name} {mode}: exit/verdict {got} where plain gave "
                            f"{expected}\n{p.stdout[-800:]}\n{p.stderr[-1500:]}")
        if not r:
            problems.append(f"{name} {mode}: no report\n{p.stderr[-1500:]}")
        elif r.get("classes"):
            problems.append(f"{name} {mode}: classes {r['classes']} in a program "
                            f"that captures nothing")
    if name in VARYING:
        lines.append(f"{'':24s} (counts not compared: {VARYING[name]})")
    elif len(set(outside.values())) > 1:
        problems.append(f"{name}: kernels outside graphs differ between modes: "
                        f"{outside}")
    return lines, problems


failures = []
jobs = max(1, (os.cpu_count() or 2) // 2)
with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
    built = dict(pool.map(build_one, PROGRAMS))
for name, problem in built.items():
    if problem:
        failures.append(f"{name}: {problem}")
runnable = [s for s in PROGRAMS if not built[s[0]]]
with concurrent.futures.ThreadPoolExecutor(4) as pool:
    for lines, problems in pool.map(run_one, runnable):
        print("\n".join(lines))
        failures.extend(problems)
for f in failures:
    print("FAIL:", f)
print(f"transparency: {len(runnable)} programs x plain and {len(MODES)} modes, "
      f"{len(failures)} failures")
sys.exit(1 if failures else 0)
