import torch

from buildtools import load_extension

_ops = load_extension("libops.so")


def capture(g, x):
    with torch.cuda.graph(g):
        y = x * 2
        _ops.flush_all(0)
    return y
