import torch
from torch import nn


def debug_stats(x):
    return x.abs().max().item()


class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        if torch.cuda.is_current_stream_capturing():
            return q + k + v
        print(q)  # only when not capturing: fine
        return q + k + v


class MLP(nn.Module):
    def forward(self, x):
        peak = debug_stats(x)
        return x * 2
