# Regions as PyTorch code opens them: capture_begin/capture_end, modes,
# make_graphed_callables, the def-line pragma, guards.
# RUN: %expect-exit 1 %capture-lint --quiet %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
import torch
from torch import nn


def begin_end(g, x):
    x.item()  # before the begin: fine
    g.capture_begin(capture_error_mode="relaxed")
    try:
        y = torch.cuda.get_rng_state()
        # CHECK: regions.py:[[@LINE-1]]:13: warning: 'torch.cuda.get_rng_state()' reads the CUDA generator's state on the host: in a relaxed-mode capture it runs once
        # CHECK: regions.py:[[@LINE-4]]:5: note: capture into graph 'g' begins here (capture_begin), mode relaxed
        z = x.item()
        # CHECK: regions.py:[[@LINE-1]]:13: error: 'x.item()' copies a device value to the host and synchronizes the stream: in a relaxed-mode capture it fails
    finally:
        g.capture_end()
    x.item()  # after the end: fine


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        y = self.proj(x)
        if y.mean() > 0:  # reached from both regions below
            return y
        return -y


def graphed(graph):
    head = Head().cuda()
    graphed_head = torch.cuda.make_graphed_callables(head, (torch.randn(2, 4),))
    # The callable's body is the region: reported where the hazard is.
    # CHECK: regions.py:30:12: error: 'if' condition 'y.mean() > 0' converts a tensor to a Python value (a device-to-host copy and a stream synchronize, as in item()): in a global-mode capture it fails
    # CHECK: regions.py:[[@LINE-3]]:20: note: 'make_graphed_callables' captures the callables given here, mode global
    with torch.cuda.graph(graph, capture_error_mode="thread_local"):
        out = head(torch.ones(2, 4, device="cuda"))
        # CHECK: regions.py:[[@LINE-1]]:15: error: call to 'Head.forward' reaches 'if' condition 'y.mean() > 0', which converts a tensor to a Python value {{.*}}: in a thread_local-mode capture it fails
        # CHECK: regions.py:30:12: note: 'if' condition 'y.mean() > 0' is here
        # CHECK: regions.py:[[@LINE-4]]:10: note: capture into graph 'graph' begins here (torch.cuda.graph), mode thread_local


def decode_step(x):  # capture-lint: captured
    torch.cuda.synchronize()
    # CHECK: regions.py:[[@LINE-1]]:5: error: 'torch.cuda.synchronize()' waits for all work on the device: in a global-mode capture
    # CHECK: regions.py:[[@LINE-3]]:5: note: 'decode_step' always runs under capture (# capture-lint: captured)
    return x


def capturing():
    return torch.cuda.is_current_stream_capturing()


def logged(x):
    if capturing():
        return x
    print(x.sum())  # runs only when not capturing: fine
    return x


def guarded(g, x):
    with torch.cuda.graph(g):
        y = logged(x)
        if not torch.cuda.is_current_stream_capturing():
            torch.cuda.synchronize()  # fine


def debug_only(x, debug):
    # Only when debug: without it the rest runs under capture.
    if debug and torch.cuda.is_current_stream_capturing():
        return x
    torch.cuda.synchronize()
    return x


def plain(x):
    if torch.cuda.is_current_stream_capturing():
        return x  # a comment after the return: still the function's end
    torch.cuda.synchronize()  # never under capture: fine
    return x


def either(x, stream):
    if stream.is_capturing() or torch.cuda.is_current_stream_capturing():
        return x  # whenever capturing
    torch.cuda.synchronize()  # never under capture: fine
    return x


def combined_guards(g, x, s):
    # Guards combined with other conditions (issue 26, item 8).
    with torch.cuda.graph(g):
        debug_only(x, False)
        # CHECK: regions.py:[[@LINE-1]]:9: error: call to 'debug_only' reaches 'torch.cuda.synchronize()'
        either(x, s)
        plain(x)
        if x is None and not torch.cuda.is_current_stream_capturing():
            torch.cuda.synchronize()  # never true under capture: fine
