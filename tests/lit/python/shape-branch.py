# RUN: %expect-exit 0 %capture-lint --quiet %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
import torch


def run(g, x, mask):
    if x.shape[0] > 4:  # outside the region: fine
        x = x[:4]
    with torch.cuda.graph(g):
        if x.shape[0] > 4:
            # CHECK: shape-branch.py:[[@LINE-1]]:12: remark: 'if' condition 'x.shape[0] > 4' depends on 'x.shape' (a tensor shape): the capture records only the path taken now, and every replay repeats it whatever the shape; capture one graph per shape bucket
            x = x * 2
        n = x.size(0)
        if n == 1:
            # CHECK: shape-branch.py:[[@LINE-1]]:12: remark: 'if' condition 'n == 1' depends on 'x.size(0)'
            x = x + 1
        for i in range(x.dim()):
            # CHECK: shape-branch.py:[[@LINE-1]]:9: remark: 'for' loop over 'range(x.dim())' depends on 'x.dim()'
            x = x.cumsum(i)
        y = x.view(n, -1)  # shapes as arguments of tensor ops: fine
        b, t = x.shape
        z = x if t > 8 else y
        # CHECK: shape-branch.py:[[@LINE-1]]:18: remark: 'conditional expression' condition 't > 8' depends on 'x.shape'
        if mask is None:  # not a shape: fine
            pass
        for layer in range(4):  # a constant loop: fine
            x = x + layer
        if x.dim() != 2:  # an input check that raises: like an assert, fine
            raise ValueError("expected a matrix, got " + str(x.shape))
        assert x.numel() > 0  # fine
