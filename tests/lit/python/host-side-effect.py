# capture-host-side-effect: host state that outlives the region, updated in
# it, runs once at capture and never on replay; and the legal look-alikes.
# RUN: %expect-exit 1 %capture-lint --quiet %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
import logging

import torch

calls = 0
log = logging.getLogger(__name__)


class Worker:
    def __init__(self):
        self.count = 0
        self.scale = 1.0

    def step(self):
        self.count += 1  # legal where the worker is made in the region

    def scaled(self, y):
        self.scale *= 2.0  # passed to captured work: frozen-host-value's
        return y.mul(self.scale)


class Runner:
    def __init__(self, model):
        self.model = model
        self.graph = torch.cuda.CUDAGraph()
        self.step = 0
        self.lengths = []
        self.outputs = []
        self.scale = 1.0
        self.captured = False
        self.worker = Worker()

    def _count(self):
        self.step += 1

    def capture(self, x):
        global calls
        with torch.cuda.graph(self.graph):
            # CHECK: [[#@LINE+1]]:13: warning: 'self.step += 1' updates 'self.step', host state that outlives the region: a graph records GPU work only, so the update runs once
            self.step += 1
            # CHECK: [[#@LINE+1]]:13: warning: 'calls = calls + 1' updates 'calls'
            calls = calls + 1
            # CHECK: [[#@LINE+1]]:13: warning: 'self.lengths.append(x.shape[0])' updates 'self.lengths'
            self.lengths.append(x.shape[0])
            # CHECK: [[#@LINE+1]]:13: warning: call to 'Runner._count' reaches 'self.step += 1'
            self._count()
            # CHECK: :[[#@LINE-13]]:9: note: the update is here
            y = self.model(x)
            worker = Worker()  # made in the region: its state dies with it
            worker.step()
            workers = [Worker() for _ in range(2)]
            for w in workers:
                w.step()
            workers[0].step()
            # CHECK: [[#@LINE+1]]:13: warning: call to 'Worker.step' reaches 'self.count += 1'
            self.worker.step()  # a worker from outside the region
            # CHECK: [[#@LINE+1]]:17: warning: call to 'Worker.scaled' reaches 'self.scale'
            y = self.worker.scaled(y)
            self.outputs.append(y)  # a graph output kept: legal
            self.static_out = y  # a plain store: legal
            self.captured = True  # a plain store: legal
            n = 0
            n += 1  # a local: legal
            log.info("capturing %d", n)  # logging: not reported
            # Passed to captured work: capture-frozen-host-value's, not this
            # check's.
            self.scale += 0.5
            # CHECK: [[#@LINE+1]]:23: warning: 'self.scale' is updated on the host
            z = y.mul(self.scale)
        return z

    def replay(self):
        self.step += 1  # outside the region: legal
        self.graph.replay()
