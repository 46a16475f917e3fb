# Callables kept in fields (issue 26, item 7): `self._fn = fn` in __init__
# holds what the constructor's callers pass, positionally or by keyword, so
# `self._fn(x)` in the capture reaches it; a runner only ever given a clean
# function stays quiet.
# RUN: %expect-exit 1 %capture-lint --quiet %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
import torch
from torch import nn


class Block(nn.Module):
    def forward(self, x):
        torch.cuda.synchronize()
        return x


def clean(x):
    return x * 2


class Runner:
    def __init__(self, fn, scale=1.0):
        self._fn = fn
        self.scale = scale

    def capture(self, g, x):
        with torch.cuda.graph(g):
            return self._fn(x)
            # CHECK: bound-callables.py:[[@LINE-1]]:20: error: call to 'Block.forward' reaches 'torch.cuda.synchronize()'


class KeywordRunner:
    def __init__(self, scale, step=None):
        self.step = step

    def capture(self, g, x):
        with torch.cuda.graph(g):
            return self.step(x)
            # CHECK: bound-callables.py:[[@LINE-1]]:20: error: call to 'Block.forward' reaches 'torch.cuda.synchronize()'


class CleanRunner:
    def __init__(self, fn):
        self.fn = fn

    def capture(self, g, x):
        with torch.cuda.graph(g):
            return self.fn(x)


def build():
    return Runner(Block()), KeywordRunner(2.0, step=Block()), CleanRunner(clean)
