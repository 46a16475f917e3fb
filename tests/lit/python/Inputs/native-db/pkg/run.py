import torch


def capture(g, x):
    with torch.cuda.graph(g):
        return torch.ops.myext.step(x)
