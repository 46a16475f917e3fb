# What a helper does to a parameter depends on what its callers pass (issue
# 26): `ids.cuda()` on an unannotated parameter stages pageable host memory
# when a caller passes a CPU tensor and is legal for a device tensor;
# `x[mask]` sizes its result from data when the mask is boolean. The
# helper's summary keeps such a hazard with what the parameter must be, and
# each call site in a region checks the value it passes, through helpers
# that pass the parameter on.
# RUN: %expect-exit 1 %capture-lint --quiet %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
import numpy as np
import torch


def stage(ids):
    return ids.cuda()


def stage_to(ids, dev):
    return ids.to(dev)


def forward_stage(values):
    return stage(values)


def pick(x, mask):
    return x[mask]


def scale(t):
    return float(t)


def slice_of(x, start):
    return x[start:]


def capture(n, k: int):
    g = torch.cuda.CUDAGraph()
    dev = torch.empty(8, device="cuda")
    host = torch.arange(n)
    with torch.cuda.graph(g):
        # CHECK: [[#@LINE+1]]:13: error: call to 'stage' reaches 'ids.cuda()', which copies a CPU tensor in pageable memory
        a = stage(host)
        # CHECK: [[#@LINE-1]]:13: note: it passes a CPU tensor for 'ids' here
        b = stage(dev)  # a device tensor: legal
        # CHECK: [[#@LINE+1]]:13: error: call to 'stage_to' reaches 'ids.to(dev)'
        c = stage_to(torch.from_numpy(np.zeros(3)), "cuda")
        # Passed on through another helper.
        # CHECK: [[#@LINE+1]]:13: error: call to 'forward_stage' reaches 'ids.cuda()'
        d = forward_stage(torch.zeros(4))
        # CHECK: [[#@LINE+1]]:13: error: call to 'pick' reaches boolean-mask indexing 'x[mask]'
        e = pick(dev, dev > 0)
        # CHECK: [[#@LINE-1]]:13: note: it passes a boolean mask for 'mask' here
        f = pick(dev, dev.argmax())  # an index tensor: legal
        # CHECK: [[#@LINE+1]]:13: error: call to 'scale' reaches 'float(t)'
        h = scale(dev.sum())
        i = scale(k)  # an int: legal
        j = slice_of(dev, k)  # a slice bound: legal
    return a, b, c, d, e, f, h, i, j
