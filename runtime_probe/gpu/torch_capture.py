"""Three PyTorch regions for capture-probe: `.item()` inside torch.cuda.graph
(a D2H copy and a stream sync: the capture fails), `torch.empty` of a new
size inside a region (the caching allocator switches the thread to relaxed
mode and calls cudaMalloc), and a clean region. check_torch.py checks the
report capture-probe writes for this script."""
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
