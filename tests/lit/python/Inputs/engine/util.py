import torch


def normalize(x, eps):
    torch.cuda.manual_seed(0)
    return x / (x.norm() + eps)
