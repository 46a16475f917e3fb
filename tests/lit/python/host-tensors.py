# Tensors that live on the host (issue 26, item 9): a generator's
# get_state(), torch.get_rng_state() and torch.from_numpy() return CPU
# tensors (the catalog's host_tensor_functions and host_tensor_methods).
# Reading one on the host copies nothing from the device, so it is legal
# in a region; copying one to the device stages pageable memory. Reading
# the CPU generator's state is no CUDA generator read.
# RUN: %expect-exit 1 %capture-lint --quiet %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
import numpy as np
import torch


def capture(a: np.ndarray):
    g = torch.cuda.CUDAGraph()
    gen = torch.Generator(device="cuda")
    state = gen.get_state()
    cpu_state = torch.get_rng_state()
    host = torch.from_numpy(a)
    dev = torch.zeros(4, device="cuda")
    with torch.cuda.graph(g):
        if state[0] == 0:  # a CPU tensor's element: legal
            pass
        n = int(cpu_state[3])  # legal
        values = host.tolist()  # legal
        mask = host > 0
        picked = host[mask]  # a CPU tensor indexed by a CPU mask: legal
        seed = torch.get_rng_state()  # the CPU generator: legal
        # CHECK: [[#@LINE+1]]:18: error: 'state.cuda()' copies a CPU tensor in pageable memory
        copied = state.cuda()
        # CHECK: [[#@LINE+1]]:18: error: 'dev.tolist()' copies a tensor to a Python list
        listed = dev.tolist()
    return n, values, picked, seed, copied, listed
