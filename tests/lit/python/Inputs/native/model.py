import torch
import fastops
from fastops import lazy_init


class Block(torch.nn.Module):
    def forward(self, x):
        y = torch.ops.myext.step.default(x)
        return fastops.scale(y)


def fused(x):
    return torch.ops.myext.fused(x)


def capture(block: Block, x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = block(x)
        out = fused(out)
        lazy_init(3)
    torch.ops.myext.step(x)  # outside the capture
    return g, out
