import torch


def capture(g, x):
    with torch.cuda.graph(g, capture_error_mode="thread_local"):
        y = x.softmax(-1)
        top = y.max().item()
    return y
