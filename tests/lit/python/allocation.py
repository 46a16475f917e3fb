# RUN: %expect-exit 1 %capture-lint --quiet %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
import numpy as np
import torch

g = torch.cuda.CUDAGraph()
lengths = [3, 5, 7]
cpu_t = torch.tensor(lengths)
static_in = torch.zeros(4, 16, device="cuda")

with torch.cuda.graph(g):
    buf = torch.empty(4, 16, device="cuda")  # from the graph's pool: fine
    z = torch.zeros_like(static_in)  # fine
    out = static_in @ static_in.t()  # a new tensor: fine
    lens = torch.tensor(lengths, device="cuda")
    # CHECK: allocation.py:[[@LINE-1]]:12: error: 'torch.tensor(lengths, device="cuda")' stages host data in pageable memory and copies it to the device: in a global-mode capture it fails with a RuntimeError ("Cannot copy between CPU and CUDA tensors during CUDA graph capture unless the CPU tensor is pinned") and invalidates the capture; build the tensor before capture
    pos = torch.tensor([0, 1, 2], device=static_in.device)
    # CHECK: allocation.py:[[@LINE-1]]:11: error: 'torch.tensor([0, 1, 2], device=static_in.device)' stages host data
    on_host = torch.tensor([0, 1, 2])  # stays on the host: fine
    moved = cpu_t.cuda()
    # CHECK: allocation.py:[[@LINE-1]]:13: error: 'cpu_t.cuda()' copies a CPU tensor in pageable memory to the device
    moved2 = cpu_t.to("cuda")
    # CHECK: allocation.py:[[@LINE-1]]:14: error: 'cpu_t.to("cuda")' copies a CPU tensor
    again = static_in.cuda()  # already on the device: fine
    pinned = cpu_t.pin_memory()
    # CHECK: allocation.py:[[@LINE-1]]:14: error: 'cpu_t.pin_memory()' allocates pinned host memory (cudaHostAlloc)
    from_np = torch.from_numpy(np.arange(3)).cuda()
    # CHECK: allocation.py:[[@LINE-1]]:15: error: 'torch.from_numpy(np.arange(3)).cuda()' copies a CPU tensor

# In relaxed mode pinning runs once, at capture time, and the graph keeps
# that memory: a remark, worded as the C++ analysis words an allocation there.
with torch.cuda.graph(g, capture_error_mode="relaxed"):
    pinned = cpu_t.pin_memory()
    # CHECK: allocation.py:[[@LINE-1]]:14: remark: 'cpu_t.pin_memory()' allocates pinned host memory (cudaHostAlloc): in a relaxed-mode capture it is allowed: it runs once, at capture time, and every replay reuses that memory; make sure the memory outlives the graph
