# capture-unjoined-stream in Python: `with torch.cuda.stream(s):` inside a
# region forks s into the capture; unless the capturing stream waits for s
# before the region ends, capture_end fails with
# cudaErrorStreamCaptureUnjoined (904).
# RUN: %expect-exit 1 %capture-lint --quiet --checks=capture-unjoined-stream %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
import torch


def unjoined(g, x, side):
    with torch.cuda.graph(g):
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            # CHECK: unjoined-stream.py:[[@LINE-1]]:14: error: 'torch.cuda.stream(side)' forks work onto a side stream that is not joined back to the capturing stream before the region ends: in a global-mode capture it fails with cudaErrorStreamCaptureUnjoined (904)
            y = x * 2
    return y


def joined(g, x, side):
    with torch.cuda.graph(g):
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            y = x * 2
        torch.cuda.current_stream().wait_stream(side)  # joined back: fine
    return y


# A fork in a called function that returns with it unjoined: the region's
# end finds it forked.
def fork_onto_side(x):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        x.mul_(2)


def join_inside(x):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        x.mul_(2)
    torch.cuda.current_stream().wait_stream(side)  # joined before it returns


def fork_onto(side, x):  # the caller passes the stream: the caller joins it
    with torch.cuda.stream(side):
        x.mul_(2)


class Runner:
    def __init__(self):
        self.side = torch.cuda.Stream()

    def fork_member(self, x):
        with torch.cuda.stream(self.side):
            x.mul_(2)

    def capture(self, g, x):
        with torch.cuda.graph(g):
            fork_onto_side(x)
            # CHECK: unjoined-stream.py:[[@LINE-1]]:13: error: call to 'fork_onto_side' reaches 'torch.cuda.stream(side)', which forks work onto a side stream that is not joined back to the capturing stream before the region ends
            # CHECK: unjoined-stream.py:[[@LINE-28]]:10: note: 'side' is forked into the capture here
            join_inside(x)
            fork_onto(self.side, x)
            torch.cuda.current_stream().wait_stream(self.side)
            self.fork_member(x)  # forks self.side, joined below
            torch.cuda.current_stream().wait_stream(self.side)


# Legal: a called method forks onto a stream it hands on to an attribute,
# and another joins it back (rtp-llm's shared-expert executor).
class Executor:
    def start(self, x):
        stream = torch.cuda.Stream()
        stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):
            self._out = x * 2
        self._active_stream = stream

    def finish(self):
        torch.cuda.current_stream().wait_stream(self._active_stream)
        return self._out


def overlapped(g, x, out):
    executor = Executor()
    with torch.cuda.graph(g):
        executor.start(x)
        out.copy_(executor.finish())
