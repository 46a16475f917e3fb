import torch


def build(config):
    with torch.device("meta"):  # weights built lazily: no default change
        return torch.nn.Linear(4, 4)


def replay_step(graph):
    ids = torch.arange(8)
    with torch.cuda.graph(graph):
        return ids.cuda()
