#!/usr/bin/env python3
"""NVIDIA's CUDA graph samples (NVIDIA/cuda-samples, exported outside the
repository: never committed) built with -lineinfo and run under
`capture-probe run --fail-on any`: correct programs, so every one must pass
with zero findings. Prints each sample's summary (nodes by type, lifecycle,
coverage).

usage: check_samples.py CAPTURE_PROBE SAMPLES_ROOT OUT_DIR
       check_samples.py --folders   (the sample folders it needs)
  SAMPLES_ROOT holds Common/ and Samples/ of cuda-samples (pinned commit in
  docs/runtime-probe.md: commit c94ff366).

Each sample runs at every method it has: jacobiCudaGraphs at -gpumethod=0
(capture and instantiate once), 1 (capture again at every iteration and
update the executable graph with cudaGraphExecUpdate: no churn) and 2 (no
graph)."""
import json
import os
import subprocess
import sys

samples = [
    ("simpleCudaGraphs", "3_CUDA_Features/simpleCudaGraphs", ["simpleCudaGraphs.cu"], []),
    ("graphConditionalNodes", "3_CUDA_Features/graphConditionalNodes", ["graphConditionalNodes.cu"], []),
    ("graphMemoryNodes", "3_CUDA_Features/graphMemoryNodes", ["graphMemoryNodes.cu"], []),
    ("graphMemoryFootprint", "3_CUDA_Features/graphMemoryFootprint", ["graphMemoryFootprint.cu"], []),
    ("jacobiCudaGraphs", "3_CUDA_Features/jacobiCudaGraphs", ["jacobi.cu", "main.cpp"], []),
    ("conjugateGradientCudaGraphs", "4_CUDA_Libraries/conjugateGradientCudaGraphs",
     ["conjugateGradientCudaGraphs.cu"], ["-lcublas", "-lcusparse"]),
    ("cudaGraphsPerfScaling", "6_Performance/cudaGraphsPerfScaling", ["cudaGraphPerfScaling.cu"], []),
]
if sys.argv[1:] == ["--folders"]:
    print("\n".join(sorted({rel for _, rel, _, _ in samples})))
    sys.exit(0)
if len(sys.argv) != 4:
    sys.exit(__doc__)
probe, root, out_dir = sys.argv[1:4]
# Arguments of each run of a sample (one run with none by default).
METHODS = {"jacobiCudaGraphs": [["-gpumethod=0"], ["-gpumethod=1"],
                                ["-gpumethod=2"]]}
build = os.path.join(out_dir, "samples-build")
os.makedirs(build, exist_ok=True)
failures = []
for name, rel, sources, libs in samples:
    src = os.path.join(root, "Samples", rel)
    exe = os.path.join(build, name)
    cmd = ["nvcc", "-O2", "-lineinfo", "-arch=sm_90", "-std=c++17",
           "-I", os.path.join(root, "Common"), "-o", exe] + \
          [os.path.join(src, s) for s in sources] + libs
    b = subprocess.run(cmd, capture_output=True, text=True)
    if b.returncode != 0:
        failures.append(f"{name}: build failed")
        print(f"--- {name}: build failed\n{b.stderr[-2000:]}")
        continue
    for args in METHODS.get(name, [[]]):
        tag = name + "".join(args)
        report = os.path.join(out_dir, f"sample-{tag}.json")
        p = subprocess.run([probe, "run", "--fail-on", "any", "--report",
                            report, "--", exe] + args, capture_output=True,
                           text=True, timeout=300, cwd=src)
        r = json.load(open(report))
        nodes = [c["graph_nodes"] for c in r["captures"]]
        life = [(c.get("instantiations"), c.get("updates", 0),
                 c.get("launches"), c.get("repeats")) for c in r["captures"]]
        print(f"--- {tag}: exit {p.returncode}; {len(r['captures'])} capture "
              f"records; classes {r['classes']}; nodes {nodes[:4]}; "
              f"(instantiations, updates, launches, repeats) {life[:4]}; "
              f"coverage {r.get('graph_coverage')}")
        print(p.stderr[-1500:])
        if p.returncode != 0:
            failures.append(f"{tag}: --fail-on any exit {p.returncode}, "
                            f"classes {r['classes']}")
for f in failures:
    print("FAIL:", f)
print(f"cuda-samples graph samples: {len(samples)} run, {len(failures)} failures")
sys.exit(1 if failures else 0)
