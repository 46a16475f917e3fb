# RUN: %expect-exit 1 %capture-lint %s 2>&1 | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
#
# Valid Python that tree-sitter-python rejects: `or` after a subscript in an
# annotation (the grammar's generic type takes no operator). The tree is
# parsed again with the `or` read as a union, so the file parses and the
# region in the annotated function is analysed.
import torch


def capture(g, x, options: dict[str, int] or None = None):
    with torch.cuda.graph(g):
        y = x * 2
        # CHECK: annotation-or.py:[[@LINE+1]]:9: error: 'torch.cuda.synchronize()' waits for all work on the device
        torch.cuda.synchronize()
    return y


def keep(flags: list[str] or None, n: int or None = None):
    return flags or n
