# A kernel wrapper local-imports.py imports inside a function.
import torch


def topk(x):
    torch.cuda.synchronize()
    return x
