# capture-dangling-buffer: a tensor the capture read (a static input)
# rebound to a new tensor before a replay; the legal look-alikes beside it.
# RUN: %expect-exit 1 %capture-lint --quiet %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
import torch


def serve(model, batches):
    static_x = torch.zeros(8, 16, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        static_y = model(static_x)
    for batch in batches:
        static_x = batch.to("cuda")
        # CHECK: dangling-buffer.py:[[@LINE-1]]:9: error: 'static_x' is rebound to a new tensor here, after the capture into 'g' read it and before a replay: the graph keeps the old tensor's address, so the replay reads the old tensor, not the new value, and once nothing holds the old tensor the caching allocator gives its memory to the next allocation, which the replay then reads; copy the new value into the captured tensor (static_x.copy_(...)) instead of rebinding the name [capture-dangling-buffer]
        # CHECK: dangling-buffer.py:[[@LINE-4]]:26: note: the capture reads 'static_x' here
        # CHECK: dangling-buffer.py:[[@LINE+3]]:9: note: 'g' is replayed here
        # CHECK: dangling-buffer.py:[[@LINE-7]]:10: note: capture into graph 'g'
        # The replay reads the old tensor:
        g.replay()
        yield static_y


class Runner:
    def __init__(self, model):
        self.model = model
        self.static_x = torch.zeros(8, 16, device="cuda")
        self.graph = torch.cuda.CUDAGraph()

    def run(self, x):
        with torch.cuda.graph(self.graph):
            self.static_y = self.model(self.static_x)
        self.static_x = x
        # CHECK: dangling-buffer.py:[[@LINE-1]]:9: error: 'self.static_x' is rebound to a new tensor here, after the capture into 'self.graph' read it
        # CHECK: dangling-buffer.py:[[@LINE-3]]:40: note: the capture reads 'self.static_x' here
        # CHECK: dangling-buffer.py:[[@LINE+2]]:9: note: 'self.graph' is replayed here
        # CHECK: dangling-buffer.py:[[@LINE-6]]:14: note: capture into graph 'self.graph'
        self.graph.replay()
        return self.static_y

    def run_copy(self, x):
        # Legal: the new value is copied into the captured tensor.
        with torch.cuda.graph(self.graph):
            self.static_y = self.model(self.static_x)
        self.static_x.copy_(x)
        self.graph.replay()
        return self.static_y


def outputs_only(model, x):
    # Legal: the output is rebound (the graph's own pool holds it), the
    # input is not; and a name rebound after the last replay.
    static_x = torch.zeros(8, 16, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        static_y = model(static_x)
    static_x.copy_(x)
    g.replay()
    out = static_y.clone()
    static_y = None
    static_x = None
    return out
