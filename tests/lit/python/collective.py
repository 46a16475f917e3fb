# capture-collective: collectives only some ranks capture, object
# collectives and barriers in a region; the legal look-alikes beside them.
# RUN: %expect-exit 1 %capture-lint --quiet %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
import torch
import torch.distributed as dist


def sync_grads(t):
    dist.all_reduce(t)


def reduce_on_root(t):
    if dist.get_rank() == 0:
        dist.reduce(t, dst=0)


class Runner:
    def __init__(self, rank, world_size):
        self.rank = rank
        self.world_size = world_size
        self.graph = torch.cuda.CUDAGraph()

    def capture(self, x, stats):
        with torch.cuda.graph(self.graph):
            y = x * 2
            if dist.get_rank() == 0:
                dist.all_reduce(y)
            # CHECK: collective.py:[[@LINE-1]]:17: error: 'dist.all_reduce(y)' runs only on the ranks where 'dist.get_rank() == 0' holds: a captured collective must be captured on every rank of its communicator, so the ranks record different graphs and a replay waits in 'dist.all_reduce(y)' for ranks whose graph lacks it (a hang, not an error); make the collective on every rank and let the rank choose the data, not the call [capture-collective]
            # CHECK: collective.py:[[@LINE-3]]:16: note: the branch on the rank
            # CHECK: collective.py:[[@LINE-6]]:14: note: capture into graph 'self.graph'
            if self.rank != 0:
                sync_grads(y)
            # CHECK: collective.py:[[@LINE-1]]:17: error: 'sync_grads(y)' runs only on the ranks where 'self.rank != 0' holds
            # CHECK: collective.py:[[@LINE-3]]:16: note: the branch on the rank
            # CHECK: collective.py:10:5: note: the collective is made here
            # CHECK: collective.py:[[@LINE-12]]:14: note: capture into graph 'self.graph'
            for _ in range(self.rank):
                dist.broadcast(y, src=0)
            # CHECK: collective.py:[[@LINE-1]]:17: error: 'dist.broadcast(y, src=0)' runs as many times as a loop on the rank ('range(self.rank)') repeats
            # CHECK: collective.py:[[@LINE-3]]:22: note: the loop on the rank
            # CHECK: collective.py:[[@LINE-17]]:14: note: capture into graph 'self.graph'
            dist.all_gather_object(stats, {"n": 1})
            # CHECK: collective.py:[[@LINE-1]]:13: error: 'dist.all_gather_object(stats, {"n": 1})' exchanges pickled Python objects
            # CHECK: collective.py:[[@LINE-20]]:14: note: capture into graph 'self.graph'
            dist.barrier()
            # CHECK: collective.py:[[@LINE-1]]:13: error: 'dist.barrier()' blocks until every rank enters it
            # CHECK: collective.py:[[@LINE-23]]:14: note: capture into graph 'self.graph'
        return y

    def helper(self, x):
        with torch.cuda.graph(self.graph):
            reduce_on_root(x)
            # CHECK: collective.py:[[@LINE-1]]:13: error: call to 'reduce_on_root' reaches 'dist.reduce(t, dst=0)', which runs only on the ranks where 'dist.get_rank() == 0' holds
            # CHECK: collective.py:15:9: note: 'dist.reduce(t, dst=0)' is called here
            # CHECK: collective.py:14:8: note: the branch on the rank
            # CHECK: collective.py:[[@LINE-5]]:14: note: capture into graph 'self.graph'
        return x

    def uniform(self, x):
        with torch.cuda.graph(self.graph):
            y = x * 2
            # Both arms make a collective: every rank records one.
            if self.rank == 0:
                dist.broadcast(y, src=0)
            else:
                dist.broadcast(y, src=0)
            # The rank chooses the data, not the call.
            src = y if self.rank == 0 else y * 0
            dist.all_reduce(src)
            # The group's size is the same on every rank.
            if self.world_size > 1:
                dist.all_reduce(y)
            # Point-to-point pairs differ by rank on purpose.
            if self.rank == 0:
                dist.send(y, dst=1)
            else:
                dist.recv(y, src=0)
        return y

    def outside(self, x):
        # The branch on the rank is outside the capture: every rank that
        # captures records the same graph.
        if self.rank == 0:
            with torch.cuda.graph(self.graph):
                dist.all_reduce(x)
        dist.barrier()  # not captured
        return x
