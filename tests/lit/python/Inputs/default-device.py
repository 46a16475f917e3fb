import torch

torch.set_default_device("cuda")


def replay_step(graph):
    ids = torch.arange(8)
    with torch.cuda.graph(graph):
        return ids.cuda()  # the default device is the GPU: no copy
