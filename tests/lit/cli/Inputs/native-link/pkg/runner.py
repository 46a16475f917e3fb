import torch

from . import util


class Runner:
    def __init__(self):
        self.graph = torch.cuda.CUDAGraph()

    def capture(self, x):
        with torch.cuda.graph(self.graph):
            y = util.step(x)
            util.settle()
        return y
