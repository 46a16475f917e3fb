# Regions opened through the program's own code: a @contextmanager that
# wraps torch.cuda.graph, and capture_begin in start() with capture_end in
# stop().
# RUN: %expect-exit 1 %capture-lint --quiet %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
import contextlib

import torch


@contextlib.contextmanager
def graph_capture(graph, stream):
    with torch.cuda.stream(stream):
        with torch.cuda.graph(graph, stream=stream, capture_error_mode="relaxed"):
            yield graph


def capture(graph, stream, x):
    x.item()  # outside: fine
    with graph_capture(graph, stream):
        y = x.item()
        # CHECK: wrappers.py:[[@LINE-1]]:13: error: 'x.item()' copies a device value to the host and synchronizes the stream: in a relaxed-mode capture it fails
        # CHECK: wrappers.py:[[@LINE-3]]:10: note: 'graph_capture' captures the block it wraps (its 'with torch.cuda.graph' yields), mode relaxed
    x.item()  # after: fine


class Recorder:
    def __init__(self):
        self.graph = torch.cuda.CUDAGraph()

    def start(self, x):
        x.item()  # before the begin: fine
        self.graph.capture_begin()
        torch.cuda.synchronize()
        # CHECK: wrappers.py:[[@LINE-1]]:9: error: 'torch.cuda.synchronize()' waits for all work on the device
        # CHECK: wrappers.py:[[@LINE-3]]:9: note: capture into graph 'self.graph' begins here (capture_begin), mode global; it is not ended in this function

    def stop(self, x):
        torch.cuda.manual_seed(3)
        # CHECK: wrappers.py:[[@LINE-1]]:9: error: 'torch.cuda.manual_seed(3)' changes the CUDA generator's seed or offset
        # CHECK: wrappers.py:[[@LINE-3]]:9: note: 'Recorder.stop' ends the capture that 'Recorder.start' begins (capture_begin), mode global; the code before capture_end here runs under it
        self.graph.capture_end()
        x.item()  # after the end: fine
