# Callables passed to the program's own capture helpers run under capture
# (issue 26, cause C of the real-code evaluation: xformers' and rtp-llm's
# `capture_graph(lambda: fn())`, ktransformers' `timing(forward)`). A
# function that calls a parameter under a capture it opens, or passes the
# parameter on to such a function, captures what its callers give it; the
# region begins at the call.
# RUN: %expect-exit 1 %capture-lint --quiet %s %S/Inputs/helpers/graph_utils.py \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
import contextlib

import torch
from helpers.graph_utils import capture_graph


def timing(func):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        func()
    return g


def begin_end(step, graph):
    graph.capture_begin()
    step()
    graph.capture_end()
    # CHECK: capture-helpers.py:[[@LINE-1]]:5: warning: 'graph.capture_end()' is not in a finally block


@contextlib.contextmanager
def graph_scope():
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        yield g


def in_scope(fn):
    with graph_scope():
        fn()


def latency(fn):
    # passes its own parameter on, inside a lambda
    return capture_graph(lambda: fn(), warmups=1)


def warm_only(fn):
    for _ in range(3):
        fn()  # never under capture: not a helper


def forward():
    torch.cuda.synchronize()


class Bench:
    def run(self, fn):
        with torch.cuda.graph(torch.cuda.CUDAGraph()):
            fn()

    def test(self):
        self.run(lambda: torch.cuda.synchronize())
        # CHECK: capture-helpers.py:[[@LINE-1]]:26: error: 'torch.cuda.synchronize()' waits for all work on the device
        # CHECK: capture-helpers.py:[[@LINE-2]]:9: note: 'Bench.run' captures the callables given here (it calls 'fn' under capture at capture-helpers.py:58), mode global



def main(graph):
    timing(step_timing)
    # Each callable's body is the region (issue 26, item 5): its hazard is
    # reported where it is, with the helper's call as the region's note
    # (checked at the end of the file, where the callables are).
    timing(func=lambda: torch.cuda.synchronize())
    # CHECK: capture-helpers.py:[[@LINE-1]]:25: error: 'torch.cuda.synchronize()' waits for all work on the device
    # CHECK: capture-helpers.py:[[@LINE-2]]:5: note: 'timing' captures the callables given here
    begin_end(step_begin_end, graph)
    in_scope(step_in_scope)
    latency(step_latency)
    capture_graph(step_capture_graph)















def legal(graph):
    warm_only(forward)  # not a capture helper
    timing(lambda: torch.ones(4, device="cuda"))  # captured work: fine
    timing(print)  # not a function of the program: not followed


def closures(x: torch.Tensor, n: int):
    # A lambda or nested function reads the names around it (its closure).
    timing(lambda: x.tolist())
    # CHECK: capture-helpers.py:[[@LINE-1]]:20: error: 'x.tolist()' copies a tensor to a Python list
    # CHECK: capture-helpers.py:[[@LINE-2]]:5: note: 'timing' captures the callables given here


    def head():
        return x[0].item()

    timing(head)
    # CHECK: capture-helpers.py:[[@LINE-3]]:16: error: 'x[0].item()' copies a device value to the host
    # CHECK: capture-helpers.py:[[@LINE-2]]:5: note: 'timing' captures the callables given here

    timing(lambda: float(n))  # a Python int: fine


# The callables main() gives each helper (main is at line 66).
def step_timing():
    torch.cuda.synchronize()
    # CHECK: capture-helpers.py:[[@LINE-1]]:5: error: 'torch.cuda.synchronize()' waits for all work on the device: in a global-mode capture
    # CHECK: capture-helpers.py:68:5: note: 'timing' captures the callables given here (it calls 'func' under capture at capture-helpers.py:18), mode global


def step_begin_end():
    torch.cuda.synchronize()
    # CHECK: capture-helpers.py:[[@LINE-1]]:5: error: 'torch.cuda.synchronize()' waits
    # CHECK: capture-helpers.py:75:5: note: 'begin_end' captures the callables given here (it calls 'step' under capture at capture-helpers.py:24), mode global


def step_in_scope():
    torch.cuda.synchronize()
    # CHECK: capture-helpers.py:[[@LINE-1]]:5: error: 'torch.cuda.synchronize()' waits
    # CHECK: capture-helpers.py:76:5: note: 'in_scope' captures the callables given here (it calls 'fn' under capture at capture-helpers.py:38), mode global


def step_latency():
    torch.cuda.synchronize()
    # CHECK: capture-helpers.py:[[@LINE-1]]:5: error: 'torch.cuda.synchronize()' waits for all work on the device: in a thread_local-mode capture it fails
    # CHECK: capture-helpers.py:77:5: note: 'latency' captures the callables given here (it passes 'fn' to 'capture_graph', which captures it at capture-helpers.py:43), mode thread_local


def step_capture_graph():
    torch.cuda.synchronize()
    # CHECK: capture-helpers.py:[[@LINE-1]]:5: error: 'torch.cuda.synchronize()' waits
    # CHECK: capture-helpers.py:78:5: note: 'capture_graph' captures the callables given here (it calls 'fn' under capture at graph_utils.py:10), mode thread_local
