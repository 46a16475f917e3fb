# Openers and closers reached through other functions of the program (issue
# 26): start() calls self._open(), which calls capture_begin and leaves the
# capture open, so start() is an opener too; stop() calls self._close(),
# which ends it, so stop() is a closer. As in C++, a function is an opener
# when a capture it begins, by itself or through an opener it calls for its
# effect, is still open when it returns.
# RUN: %expect-exit 1 %capture-lint --quiet %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
import torch


class Engine:
    def __init__(self, model):
        self.model = model
        self.graph = torch.cuda.CUDAGraph()

    def _open(self):
        self.graph.capture_begin()

    def _close(self):
        self.graph.capture_end()

    def start(self):
        torch.cuda.synchronize()  # before the capture begins: fine
        self._open()

    def stop(self):
        self._close()

    def capture(self, x):
        self.start()
        y = self.model(x)
        n = int(y.sum())
        # CHECK: openers-through-openers.py:[[@LINE-1]]:13: error: 'int(y.sum())'
        # CHECK: openers-through-openers.py:[[@LINE-4]]:9: note: capture into graph 'self.graph' begins with this call to 'Engine.start', which calls 'Engine._open', whose capture_begin (openers-through-openers.py:18) leaves it open, mode global
        self.stop()
        # CHECK: openers-through-openers.py:[[@LINE-1]]:9: warning: 'self.stop()' is not in a finally block
        # CHECK: openers-through-openers.py:[[@LINE-7]]:9: note: capture into graph 'self.graph' begins with this call to 'Engine.start'
        torch.cuda.synchronize()  # after the closer: not captured
        return y, n

    def rebuild(self, x):
        # Opens through start() and ends through stop(): neither an opener
        # nor a closer for its callers.
        self.start()
        y = self.model(x)
        self.stop()
        # CHECK: openers-through-openers.py:[[@LINE-1]]:9: warning: 'self.stop()' is not in a finally block
        # CHECK: openers-through-openers.py:[[@LINE-4]]:9: note: capture into graph 'self.graph' begins with this call to 'Engine.start'
        return y

    def serve(self, x):
        y = self.rebuild(x)
        torch.cuda.synchronize()  # rebuild() ended its capture: fine
        return y
