# A capture context made in one statement and entered in a later `with`
# (issue 26, cause B of the real-code evaluation: apex's
# `ctx = torch.cuda.graph(g) if capture else nullcontext()`, then `with
# ctx:`) opens a region like `with torch.cuda.graph(g):`.
# RUN: %expect-exit 1 %capture-lint --quiet %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
from contextlib import nullcontext

import torch


def step(graph, capture, x):
    ctx = torch.cuda.graph(graph, capture_error_mode="thread_local") if capture else nullcontext()
    x.item()  # before the with: fine
    with ctx:
        torch.cuda.synchronize()
        # CHECK: held-context.py:[[@LINE-1]]:9: error: 'torch.cuda.synchronize()' waits for all work on the device: in a thread_local-mode capture it fails
        # CHECK: held-context.py:[[@LINE-3]]:10: note: capture into graph 'graph' begins here (torch.cuda.graph), mode thread_local; the context entered here was made at line 13


def no_capture(x):
    ctx = nullcontext()
    with ctx:
        torch.cuda.synchronize()  # not a capture: fine


def step_branches(graph, capture, x: torch.Tensor):
    # apex's shape: the context is chosen in an if/else; after it, `ctx`
    # may hold either.
    if capture:
        ctx = torch.cuda.graph(graph)
        torch.cuda.synchronize()  # before the capture: fine
    else:
        ctx = nullcontext()
    with ctx:
        x.item()
        # CHECK: held-context.py:[[@LINE-1]]:9: error: 'x.item()' copies a device value to the host
        # CHECK: held-context.py:[[@LINE-3]]:10: note: capture into graph 'graph' begins here (torch.cuda.graph), mode global; the context entered here was made at line 31
