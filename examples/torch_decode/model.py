"""A tiny PyTorch decoder captured into a CUDA graph, with genuine capture
bugs for capture-lint to find (scripts/demo.sh runs it on this package)."""
import torch
from torch import nn

from .sampling import sample


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        y = self.proj(x)
        if x.shape[0] > 8:  # a shape branch: one path is recorded
            y = y * 0.5
        return x + y


class Decoder(nn.Module):
    def __init__(self, dim, depth, vocab):
        super().__init__()
        self.blocks = nn.ModuleList([Block(dim) for _ in range(depth)])
        self.head = nn.Linear(dim, vocab)

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return sample(self.head(x))


class GraphRunner:
    def __init__(self, batch, dim, depth, vocab):
        self.model = Decoder(dim, depth, vocab).cuda().eval()
        self.graph = torch.cuda.CUDAGraph()
        self.static_x = torch.zeros(batch, dim, device="cuda")  # before capture: fine

    def capture(self):
        stream = torch.cuda.Stream()
        stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):
            self.model(self.static_x)  # warm-up outside the graph: fine
        torch.cuda.current_stream().wait_stream(stream)
        with torch.cuda.graph(self.graph):
            self.static_tokens = self.model(self.static_x)
            stops = torch.tensor([2, 3], device="cuda")  # host data staged in a region
            self.done = torch.isin(self.static_tokens, stops)

    def step(self, x):
        self.static_x.copy_(x)
        self.graph.replay()
        return self.static_tokens
