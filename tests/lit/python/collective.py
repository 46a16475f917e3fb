# capture-collective: what it reports, and the legal look-alikes beside it.
# RUN: %expect-exit 1 %capture-lint --quiet %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
import torch

g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    pass  # TODO: the shape the check reports.
    # CHECK: collective.py:[[@LINE-1]]:5: error: TODO
g.replay()
