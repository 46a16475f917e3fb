# capture-frozen-host-value: host state the region updates and then passes
# to captured work by value (a torch op's Python scalar, a Triton launch's
# argument); every replay passes the capture-time value.
# RUN: %expect-exit 1 %capture-lint --quiet --checks=capture-frozen-host-value %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
import torch
import triton

calls = 0


@triton.jit
def scale_kernel(x_ptr, step, n):
    pass


class Optimizer:
    def __init__(self, params):
        self.params = params
        self.step = 0
        self.lr = 0.1
        self.offset = 0
        self.state_step = torch.zeros(1, device="cuda")
        self.graph = torch.cuda.CUDAGraph()

    def bump(self, x: torch.Tensor):
        self.offset += 1
        return x.mul(self.offset)

    def capture(self, x: torch.Tensor):
        global calls
        x.add_(self.step)  # outside the region: fine
        with torch.cuda.graph(self.graph):
            x.add_(self.step)  # before the update: the value the author meant
            self.step += 1
            x.add_(self.step)
            # CHECK: frozen-host-value.py:[[@LINE-1]]:20: warning: 'self.step' is updated on the host inside the capture and passed to 'x.add_': the graph records the value it has at capture time; replays do not run the host update, so every replay passes that same value; keep the counter in a device tensor and update it in place inside the graph (step.add_(1)), or re-capture when it changes [capture-frozen-host-value]
            # CHECK: frozen-host-value.py:[[@LINE-3]]:13: note: 'self.step' is updated here, on the host; replays do not run this update
            # CHECK: frozen-host-value.py:[[@LINE-6]]:14: note: capture into graph 'self.graph' begins here
            y = torch.full((4,), self.step * 2, device="cuda")
            # CHECK: frozen-host-value.py:[[@LINE-1]]:34: warning: 'self.step' is updated on the host inside the capture and passed to 'torch.full'
            s = self.step
            scale_kernel[(1,)](x, s, 4)
            # CHECK: frozen-host-value.py:[[@LINE-1]]:35: warning: 'self.step' is updated on the host inside the capture and passed (through 's') to kernel launch 'scale_kernel'
            # CHECK: frozen-host-value.py:[[@LINE-10]]:13: note: 'self.step' is updated here
            # CHECK: frozen-host-value.py:[[@LINE-4]]:13: note: 's' takes its value from 'self.step' here
            calls = calls + 1
            z = torch.mul(x, calls)
            # CHECK: frozen-host-value.py:[[@LINE-1]]:30: warning: 'calls' is updated on the host inside the capture and passed to 'torch.mul'
            self.state_step += 1  # a device counter: captured, replayed
            x.add_(self.state_step)
            for i in range(3):
                x.add_(i)  # a local loop counter: fine
            self.bump(x)
            # CHECK: frozen-host-value.py:[[@LINE-1]]:13: warning: call to 'Optimizer.bump' reaches 'self.offset', which is updated on the host inside the capture and passed to 'x.mul'
            # CHECK: frozen-host-value.py:28:22: note: 'self.offset' is passed to 'x.mul' here
            # CHECK: frozen-host-value.py:27:9: note: 'self.offset' is updated here
            n = self.lr
            x.mul_(n)  # read, never updated: fine
            print(self.step)  # not captured work: fine


class Sampler:
    def __init__(self):
        self.seq = 0
        self.g1 = torch.cuda.CUDAGraph()
        self.g2 = torch.cuda.CUDAGraph()

    def capture(self, out):
        with torch.cuda.graph(self.g1):
            self.seq += 1
            out.fill_(self.seq)
            # CHECK: frozen-host-value.py:[[@LINE-1]]:23: warning: 'self.seq' is updated on the host inside the capture and passed to 'out.fill_'
        # A later capture records the value the state has then.
        with torch.cuda.graph(self.g2):
            out.fill_(self.seq)
