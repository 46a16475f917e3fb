# capture-dangling-buffer: what it reports, and the legal look-alikes beside it.
# RUN: %expect-exit 1 %capture-lint --quiet %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
import torch

g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    pass  # TODO: the shape the check reports.
    # CHECK: dangling-buffer.py:[[@LINE-1]]:5: error: TODO
g.replay()
