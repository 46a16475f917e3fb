# The right side of `a and b` runs only when a is true, of `a or b` only when
# a is false (issue 26): after `not capturing() and` or `capturing() or` it
# never runs under capture; after a value the analysis cannot see, in a
# function the region calls, it is on a path the capture may never take (a
# remark naming it). The region's own body is checked on every path.
# RUN: %expect-exit 1 %capture-lint --quiet %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
import torch


class Step:
    def __init__(self, verbose):
        self.verbose = verbose

    def run(self, x):
        ok = self.verbose and x.sum().item() > 0
        quiet = not torch.cuda.is_current_stream_capturing() and x.max().item()
        also = torch.cuda.is_current_stream_capturing() or x.min().item()
        return x, ok, quiet, also


def capture(g, x, step: Step, flag):
    with torch.cuda.graph(g):
        y = step.run(x)
        # CHECK: boolean-operators.py:[[@LINE-1]]:13: remark: call to 'Step.run' reaches 'x.sum().item()', which copies a device value to the host and synchronizes the stream, on a path taken only when 'self.verbose' is true (a value not known statically)
        # CHECK: boolean-operators.py:16:14: note: the path to it is taken only when 'self.verbose' is true
        z = flag and x.mean().item()
        # CHECK: boolean-operators.py:[[@LINE-1]]:22: error: 'x.mean().item()' copies a device value to the host
    return y, z
