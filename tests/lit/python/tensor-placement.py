# Where a tensor lives, and outputs sized by data (issue 26, items 1 and 3):
# a factory without device= makes a host tensor, so moving it to the GPU in
# a region is a pageable copy; torch.where with only a condition is
# nonzero. Device factories, three-argument where, and host tensors read on
# the host stay quiet.
# RUN: %expect-exit 1 %capture-lint --quiet %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
# A program that sets the default device makes factories on the GPU:
# RUN: %capture-lint --quiet %S/Inputs/default-device.py | count 0
import torch


def decode(graph, x: torch.Tensor, mask: torch.Tensor, n: int):
    ids = torch.arange(n)
    steps = torch.zeros(4, dtype=torch.long)
    on_gpu = torch.zeros(4, device="cuda")
    with torch.cuda.graph(graph):
        pos = ids.to("cuda")
        # CHECK: tensor-placement.py:[[@LINE-1]]:15: error: 'ids.to("cuda")' copies a CPU tensor in pageable memory to the device
        s = steps.cuda()
        # CHECK: tensor-placement.py:[[@LINE-1]]:13: error: 'steps.cuda()' copies a CPU tensor in pageable memory to the device
        hits = torch.where(mask)
        # CHECK: tensor-placement.py:[[@LINE-1]]:16: error: 'torch.where(mask)' with only a condition is nonzero(condition, as_tuple=True)
        kept = torch.where(mask, x, on_gpu)
        host = steps.sum().item()  # a host tensor: no device read
        y = on_gpu.to("cuda")  # already there
        z = torch.empty(4, device=x.device)
    return pos, s, hits, kept, host, y, z

