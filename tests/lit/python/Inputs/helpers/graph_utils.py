# A capture helper in another module (capture-helpers.py imports it).
import torch


def capture_graph(fn, warmups=3):
    for _ in range(warmups):
        fn()  # warm-up outside the capture: not what makes it a helper
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g, capture_error_mode="thread_local"):
        fn()
    return g
