#!/usr/bin/env python3
"""What capture-probe's PyTorch hook costs a capture: captures GRAPHS small
graphs, each reading one of a few hundred live CUDA tensors, with OBJECTS
other Python objects alive (about what importing Inductor leaves), and
prints the median milliseconds of a capture (the `with torch.cuda.graph`
block, whose exit runs the hook). Run it plainly, under `capture-probe run`
with CAPTURE_PROBE_TORCH=0 (the probe without the hook) and under the probe.

usage: hook_cost.py [OBJECTS] [GRAPHS]"""
import statistics
import sys
import time

import torch

objects = int(sys.argv[1]) if len(sys.argv) > 1 else 265000
graphs = int(sys.argv[2]) if len(sys.argv) > 2 else 40
heap = [{"i": i} for i in range(objects)]
tensors = [torch.full((256,), float(i), device="cuda") for i in range(300)]
x = torch.ones(1 << 16, device="cuda")
torch.cuda.synchronize()
times, kept = [], []
for i in range(graphs):
    g = torch.cuda.CUDAGraph()
    start = time.perf_counter()
    with torch.cuda.graph(g):
        y = x[:256] * 2 + tensors[i]
    times.append(time.perf_counter() - start)
    kept.append((g, y))
print("hook_cost: %d objects, %d captures: median %.2f ms per capture "
      "(first %.2f ms)" % (objects, graphs, statistics.median(times[1:]) * 1e3,
                           times[0] * 1e3))
