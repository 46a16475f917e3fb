"""Four PyTorch regions for capture-probe: `.item()` inside torch.cuda.graph
(a D2H copy and a stream sync: the capture fails), `torch.empty` of a new
size inside a region (the caching allocator switches the thread to relaxed
mode and calls cudaMalloc), a clean region, and a failed capture whose work
then runs eagerly from other lines (a silent fallback). check_torch.py
checks the report capture-probe writes for this script."""
import torch

x = torch.randn(1 << 16, device="cuda")
torch.cuda.synchronize()

# 1. .item() in a region.
g = torch.cuda.CUDAGraph()
try:
    with torch.cuda.graph(g):
        y = x * 2
        if y.sum().item() > 0:  # ITEM
            y += 1
    print("item: captured (unexpected)")
except RuntimeError as e:
    print("item: capture failed:", str(e).splitlines()[0])
torch.cuda.synchronize()

# 2. torch.empty in a region: a size the pool has never seen.
g2 = torch.cuda.CUDAGraph()
with torch.cuda.graph(g2):
    z = torch.empty(37 << 20, device="cuda")  # EMPTY
    z.fill_(1.0)
g2.replay()
torch.cuda.synchronize()
print("empty: captured")

# 3. A clean region.
g3 = torch.cuda.CUDAGraph()
static_in = torch.randn(1024, device="cuda")
with torch.cuda.graph(g3):
    static_out = static_in * 3 + 1
g3.replay()
torch.cuda.synchronize()
print("clean: captured, max error",
      (static_out - (static_in * 3 + 1)).abs().max().item())

# 4. A capture fails (a synchronize in it), and the program falls back to
# running the same work eagerly through another function: other Python
# lines, the same kernels.
def captured_step(t):
    u = torch.sin(t)
    return torch.cos(u)


def eager_step(t):
    return torch.cos(torch.sin(t))  # FALLBACK


g4 = torch.cuda.CUDAGraph()
try:
    with torch.cuda.graph(g4):
        out = captured_step(x)
        torch.cuda.synchronize()
except RuntimeError as e:
    print("fallback: capture failed:", str(e).splitlines()[0])
    out = eager_step(x)
torch.cuda.synchronize()
print("fallback: eager result", float(out[0]))
