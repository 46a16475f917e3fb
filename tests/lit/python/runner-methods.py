# A runner that splits a capture across methods (issue 26, item 6): begin()
# calls capture_begin and returns with the capture open (an opener), end()
# calls capture_end (a closer), and a third method runs the model between
# self.begin() and self.end(). As in C++ (docs/regions.md), the call to the
# opener begins a region in the caller and the call to the closer ends it.
# RUN: %expect-exit 1 %capture-lint --quiet %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
import torch


class Runner:
    def __init__(self, model):
        self.model = model
        self.graph = torch.cuda.CUDAGraph()

    def begin(self):
        self.graph.capture_begin(capture_error_mode="relaxed")

    def end(self):
        self.graph.capture_end()

    def record(self, x):
        self.begin()
        try:
            y = self.model(x)
            torch.cuda.synchronize()
            # CHECK: runner-methods.py:[[@LINE-1]]:13: error: 'torch.cuda.synchronize()' waits for all work on the device
            # CHECK: runner-methods.py:[[@LINE-5]]:9: note: capture into graph 'self.graph' begins with this call to 'Runner.begin', whose capture_begin (runner-methods.py:17) leaves it open, mode relaxed
            self.settle(y)
            # CHECK: runner-methods.py:[[@LINE-1]]:13: error: call to 'Runner.settle' reaches 'y.item()'
        finally:
            self.end()
        torch.cuda.synchronize()  # after the closer: not captured
        return y

    def settle(self, y):
        return y.item()

    def warmup(self, x):
        # No opener called: nothing here is captured.
        torch.cuda.synchronize()
        return self.model(x)

    def both(self, x):
        # Begins and ends its own capture: not an opener for its callers.
        self.graph.capture_begin()
        try:
            y = self.model(x)
        finally:
            self.graph.capture_end()
        return y

    def replay(self, x):
        self.both(x)
        torch.cuda.synchronize()  # both() ended its capture: fine
        self.graph.replay()
