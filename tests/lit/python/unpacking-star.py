# Valid Python that tree-sitter-python's grammar rejects: an unpacking `*`
# before a binary operator in an unparenthesized expression list. The file
# parses (no warning) and the code after the statement is analysed.
# RUN: %expect-exit 1 %capture-lint --quiet %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
# RUN: %capture-lint --report-only %s 2>&1 >/dev/null \
# RUN:   | FileCheck %s --check-prefix=QUIET --implicit-check-not="warning:"
# QUIET: 1 file analysed
import torch


def outputs(n, x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        first = None, *(None,) * n
        y = x * 2
        torch.cuda.synchronize()
        # CHECK: unpacking-star.py:[[@LINE-1]]:9: error: 'torch.cuda.synchronize()' waits for all work on the device
        # CHECK: unpacking-star.py:[[@LINE-5]]:10: note: capture into graph 'g' begins here
    return first, *(y,) * n


def keyword_only(*, scale=2.0):
    return scale


def also_after(g, x):
    with torch.cuda.graph(g):
        z = x.softmax(-1) * keyword_only(scale=3.0)
        z.item()
        # CHECK: unpacking-star.py:[[@LINE-1]]:9: error: 'z.item()' copies a device value to the host
        # CHECK: unpacking-star.py:[[@LINE-4]]:10: note: capture into graph 'g' begins here
    return z
