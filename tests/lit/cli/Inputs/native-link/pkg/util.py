import torch


def settle():
    torch.cuda.synchronize()


def step(x):
    return torch.ops.myext.step(x)
