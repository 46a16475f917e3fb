import torch

_CAPTURE_MODE = False


def is_capture_mode():
    return _CAPTURE_MODE


def checked_sync():
    torch.cuda.synchronize()


def log_stats(x):
    if not is_capture_mode():
        print(x.sum())


class Runner:
    def __init__(self, model):
        self.model = model

    def capture(self, x):
        y = self.model(x)
        log_stats(y)
        checked_sync()
        return y.tolist()

    def eager(self, x):
        return self.model(x).tolist()
