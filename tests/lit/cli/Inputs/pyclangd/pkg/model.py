import torch

from pkg.helpers import settle


class Runner:
    def __init__(self, model):
        self.model = model
        self.graph = torch.cuda.CUDAGraph()

    def capture(self, x):
        with torch.cuda.graph(self.graph):
            y = self.model(x)
            settle(y)
        return y
