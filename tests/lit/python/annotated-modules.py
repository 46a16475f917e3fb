# Calls through modules (issue 26, item 4): a parameter annotated with a
# class of the program (`net: Net`, quoted, Optional) reaches its forward,
# its attributes' forwards, an nn.Sequential, an iterated nn.ModuleList, an
# nn.ModuleDict entry and a forward inherited through super().
# RUN: %expect-exit 1 %capture-lint --quiet %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
from typing import Optional

import torch
from torch import nn


class Block(nn.Module):
    def forward(self, x):
        torch.cuda.synchronize()
        return x


class Base(nn.Module):
    def forward(self, x):
        return x.item()


class Child(Base):
    def forward(self, x):
        return super().forward(x)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block()
        self.seq = nn.Sequential(nn.Linear(4, 4), Block())
        self.layers = nn.ModuleList([Block() for _ in range(2)])
        self.heads = nn.ModuleDict({"a": Block()})
        self.child = Child()

    def forward(self, x):
        return self.block(x)


def whole(g, net: Net, x):
    with torch.cuda.graph(g):
        net(x)
        # CHECK: annotated-modules.py:[[@LINE-1]]:9: error: call to 'Net.forward' reaches 'torch.cuda.synchronize()'


def quoted(g, net: "Net", x):
    with torch.cuda.graph(g):
        net.seq(x)
        # CHECK: annotated-modules.py:[[@LINE-1]]:9: error: call to 'Block.forward' reaches 'torch.cuda.synchronize()'


def optional(g, net: Optional[Net], x):
    with torch.cuda.graph(g):
        for layer in net.layers:
            x = layer(x)
            # CHECK: annotated-modules.py:[[@LINE-1]]:17: error: call to 'Block.forward' reaches 'torch.cuda.synchronize()'


def by_key(g, net: Net | None, x):
    with torch.cuda.graph(g):
        net.heads["a"](x)
        # CHECK: annotated-modules.py:[[@LINE-1]]:9: error: call to 'Block.forward' reaches 'torch.cuda.synchronize()'


def inherited(g, net: Net, x):
    with torch.cuda.graph(g):
        net.child(x)
        # CHECK: annotated-modules.py:[[@LINE-1]]:9: error: call to 'Child.forward' reaches 'x.item()'


def not_a_module(g, name: str, x):
    with torch.cuda.graph(g):
        return name.split("_")  # a str method, not a tensor's
