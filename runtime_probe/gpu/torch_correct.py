"""Correct PyTorch graph use, for `capture-probe run --fail-on any`
(check_torch.py): torch.cuda.graph with new allocations in the region,
make_graphed_callables on a small model (forward and backward), and
torch.compile(mode="reduce-overhead") (CUDA graph trees). Every graph is
replayed, and outputs are checked against eager runs."""
import torch

torch.manual_seed(0)
dev = "cuda"

# 1. torch.cuda.graph, with allocations of new sizes in the region: the
# caching allocator grows the graph's private pool (legal).
static_x = torch.randn(256, 256, device=dev)
w = torch.randn(256, 256, device=dev)
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    for _ in range(3):  # warm-up, as the documentation asks
        y = torch.relu(static_x @ w)
torch.cuda.current_stream().wait_stream(s)
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    tmp = torch.empty(3 << 20, device=dev)
    tmp.fill_(0.5)
    static_y = torch.relu(static_x @ w) + tmp[:1].sum()
for _ in range(5):
    static_x.copy_(torch.randn(256, 256, device=dev))
    g.replay()
torch.cuda.synchronize()
err = (static_y - (torch.relu(static_x @ w) + 0.5)).abs().max().item()
print(f"graph: max error {err:.2e}")
assert err < 1e-2

# 2. make_graphed_callables: forward and backward graphs.
model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(),
                            torch.nn.Linear(128, 10)).to(dev)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
sample = torch.randn(32, 64, device=dev)
graphed = torch.cuda.make_graphed_callables(model, (sample,))
for _ in range(5):
    x = torch.randn(32, 64, device=dev)
    loss = graphed(x).square().mean()
    loss.backward()
    opt.step()
    opt.zero_grad(set_to_none=True)
torch.cuda.synchronize()
with torch.no_grad():
    x = torch.randn(32, 64, device=dev)
    err = (graphed(x) - model(x)).abs().max().item()
print(f"make_graphed_callables: max error {err:.2e}")
assert err < 1e-4

# 3. torch.compile(mode="reduce-overhead"): CUDA graph trees.
def f(a, b):
    return torch.sin(a) * b + torch.cos(b)  # COMPILED

cf = torch.compile(f, mode="reduce-overhead")
for i in range(6):
    a = torch.randn(1024, device=dev)
    b = torch.randn(1024, device=dev)
    out = cf(a, b)
    err = (out - f(a, b)).abs().max().item()
torch.cuda.synchronize()
print(f"torch.compile reduce-overhead: max error {err:.2e}")
assert err < 1e-4
print("correct PyTorch: done")
