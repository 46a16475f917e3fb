# Values annotated with a type that is no tensor (issue 26, item 9): a
# string's split(), a process group's size(), a Python number are host
# values, not tensor shapes or device data, so branches on them in a region
# are no shape branch; the same calls on a tensor, or on a value of unknown
# type, still are.
# RUN: %expect-exit 0 %capture-lint --quiet %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
import torch
import torch.distributed as dist
from torch.distributed import ProcessGroup


def typed(name: str, pg: dist.ProcessGroup, group: ProcessGroup, k: int,
          scale: float, g, x: torch.Tensor, other):
    with torch.cuda.graph(g):
        parts = name.split("_")
        if len(parts) > 2:
            x = x * 2
        if pg.size() > 1 and group.rank() == 0:
            x = x + 1
        if k > 3 and scale > 0.5:
            x = x - 1
        if x.size(0) > 3:
            # CHECK: non-tensor-types.py:[[@LINE-1]]:12: remark: 'if' condition 'x.size(0) > 3' depends on 'x.size(0)' (a tensor shape)
            x = x / 2
        if other.size(0) > 3:
            # CHECK: non-tensor-types.py:[[@LINE-1]]:12: remark: 'if' condition 'other.size(0) > 3' depends on 'other.size(0)' (a tensor shape)
            x = x / 3
    return x
