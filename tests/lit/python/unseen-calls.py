# Where the analysis stops it says so, once per run (issue 26, item 7): a
# call in a region, or in a function it reaches, to a parameter or local
# holding a callable nobody here defined, or to an attribute the class sets
# to one, is named with its place; callables the analysis follows are not,
# nor objects a library made (`nn.Linear(...)`): calling one runs library
# code, which the catalog covers.
# RUN: %expect-exit 0 %capture-lint %s 2>&1 \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
# CHECK: capture-lint: warning: 4 calls in capture regions or the functions they reach go to callables the analysis cannot see, so what they do was not checked: 'self.model' (unseen-calls.py:38), 'fn' (unseen-calls.py:39), 'cb' (unseen-calls.py:40) and 1 more; annotate the parameter with its class (`def run(model: Decoder)`), analyse the files that build it, or mark what it runs `# capture-lint: captured` (docs/python.md)
# CHECK: capture-lint: 1 file analysed, 0 findings
import torch
from torch import nn


def build(cfg):
    return cfg.make()


class Block(nn.Module):
    def forward(self, x):
        return x * 2


def helper(x, hook):
    y = x + 1
    return hook(y)


class Runner:
    def __init__(self, cfg):
        self.model = build(cfg)
        self.block = Block()
        self.proj = nn.Linear(4, 4)
        self.norm = torch.nn.LayerNorm(4) if cfg.norm else nn.Identity()

    def capture(self, g, x, fn, cb):
        with torch.cuda.graph(g):
            y = self.model(x)
            z = fn(y)
            w = helper(z, cb)
            v = self.block(w)  # followed: Block.forward
            u = torch.relu(self.norm(self.proj(v)))  # library code
            t = x.sum()
            other = cb
            other(t)
        return u
