import torch


def replay_step(model, x, g):
    with torch.cuda.graph(g):
        y = model(x)
        y = torch.where(y.sum() > 0, y * 2, y)
    return y
