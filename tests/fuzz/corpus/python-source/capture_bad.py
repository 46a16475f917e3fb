import torch


def replay_step(model, x, g):
    with torch.cuda.graph(g):
        y = model(x)
        if y.sum().item() > 0:
            y = y * 2
    return y
