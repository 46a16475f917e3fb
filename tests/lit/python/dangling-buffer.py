# capture-dangling-buffer: a tensor the capture read (a static input)
# rebound to a new tensor before a replay, or allocated by the capturing
# function and let go when it returns while the graph is kept; the legal
# look-alikes beside them.
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


class Engine:
    def __init__(self, model):
        self.model = model
        self.graphs = {}

    def capture(self, bs):
        ids = torch.zeros(bs, dtype=torch.long, device="cuda")
        pos = torch.arange(bs, device="cuda")
        g = torch.cuda.CUDAGraph()
        self.model(ids, pos)  # a warm-up call keeps nothing
        with torch.cuda.graph(g):
            out = self.model(ids, pos)
            # CHECK: dangling-buffer.py:[[@LINE-1]]:35: error: 'pos' is read by the capture into 'g', which is kept beyond 'Engine.capture', but nothing keeps 'pos', which 'Engine.capture' allocated: the graph keeps its address; when 'Engine.capture' returns, the caching allocator takes the memory back
            # CHECK: dangling-buffer.py:[[@LINE-6]]:9: note: 'pos' is allocated here
            # CHECK: dangling-buffer.py:[[@LINE+2]]:9: note: 'g' is kept beyond 'Engine.capture' here
            # CHECK: dangling-buffer.py:[[@LINE-5]]:14: note: capture into graph 'g' begins here
        self.graphs[bs] = g
        self.ids = ids  # kept: fine
        self.out = out

    def capture_into_attribute(self, n):
        scale = torch.full((n,), 2.0, device="cuda")
        kept = torch.ones(n, device="cuda")
        self.graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(self.graph):
            self.out = kept * scale
            # CHECK: dangling-buffer.py:[[@LINE-1]]:31: error: 'scale' is read by the capture into 'self.graph', which is kept beyond 'Engine.capture_into_attribute'
            # CHECK: dangling-buffer.py:[[@LINE-6]]:9: note: 'scale' is allocated here
        self.inputs = {"kept": kept}  # in a container the object keeps: fine

    def replayed_here(self, x):
        tmp = torch.ones_like(x)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            y = tmp * 2
        g.replay()  # the graph dies with the function: fine
        return y

    def returned_together(self, n):
        buf = torch.empty(n, device="cuda")
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            buf.mul_(2)
        return g, buf  # returned with the graph: fine

    def passed_in(self, x):
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            y = x * 2  # the caller's tensor: the caller keeps it
        self.graph = g
        return y

    def through_a_closure(self, n):
        buf = torch.zeros(n, device="cuda")
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            buf.add_(1)
        self.refill = lambda: buf.fill_(0)  # the lambda keeps it: fine
        self.graph = g

    def made_by_a_view(self, x):
        flat = x.view(-1)  # a view of the caller's tensor: not allocated here
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            flat.mul_(2)
        self.graph = g

    def kept_by_a_constructor(self, n):
        ids = torch.zeros(n, dtype=torch.long, device="cuda")
        pos = torch.zeros(n, dtype=torch.long, device="cuda")
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            out = self.model(ids[:n], pos[:n])
        self.graphs[n] = g
        self.graph_vars = dict(ids=ids, pos=pos, out=out)  # kept: fine
