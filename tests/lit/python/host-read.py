# RUN: %expect-exit 1 %capture-lint --quiet %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
import torch


def step(g, x: torch.Tensor, limit):
    scale = x.item()  # outside the region: fine
    with torch.cuda.graph(g):
        y = x.softmax(-1)
        v = y.item()
        # CHECK: host-read.py:[[@LINE-1]]:13: error: 'y.item()' copies a device value to the host and synchronizes the stream: in a global-mode capture it fails with cudaErrorStreamCaptureUnsupported (900) at its synchronize and invalidates the capture; capture_end then reports cudaErrorStreamCaptureInvalidated (901); keep the value on the device (use it in tensor ops), or read it after replay()
        # CHECK: host-read.py:[[@LINE-4]]:10: note: capture into graph 'g' begins here (torch.cuda.graph), mode global
        ids = y.argmax(-1).tolist()
        # CHECK: host-read.py:[[@LINE-1]]:15: error: 'y.argmax(-1).tolist()' copies a tensor to a Python list
        host = y.cpu()
        # CHECK: host-read.py:[[@LINE-1]]:16: error: 'y.cpu()' copies a device tensor to pageable host memory
        arr = x.numpy()
        # CHECK: host-read.py:[[@LINE-1]]:15: error: 'x.numpy()' copies a device tensor
        moved = y.to("cpu")
        # CHECK: host-read.py:[[@LINE-1]]:17: error: 'y.to("cpu")' copies a device tensor
        half = y.to(torch.float16)  # a dtype change: fine
        if torch.are_deterministic_algorithms_enabled():  # a Python bool: fine
            y = y + 0
        if torch.has_mps or torch.is_grad_enabled():  # Python values: fine
            y = y + 0
        f = float(y.sum())
        # CHECK: host-read.py:[[@LINE-1]]:13: error: 'float(y.sum())' converts a tensor to a Python value
        n = int(limit)  # not known to be a tensor: quiet
        if y.sum() > 0:
            # CHECK: host-read.py:[[@LINE-1]]:12: error: 'if' condition 'y.sum() > 0' converts a tensor
            y = y * 2
        while y.max() >= limit:
            # CHECK: host-read.py:[[@LINE-1]]:15: error: 'while' condition 'y.max() >= limit' converts
            y = y / 2
        print(y)
        # CHECK: host-read.py:[[@LINE-1]]:9: error: 'print(y)' formats a tensor's values on the host
        print("step done")  # no tensor: fine
        msg = f"max={y.max()}"
        # CHECK: host-read.py:[[@LINE-1]]:22: error: f-string field 'y.max()' formats a tensor's values
        idx = torch.nonzero(y)
        # CHECK: host-read.py:[[@LINE-1]]:15: error: 'torch.nonzero(y)' reads the number of selected elements back to the host
        sel = y[y > 0]
        # CHECK: host-read.py:[[@LINE-1]]:15: error: boolean-mask indexing 'y[y > 0]' reads the number
        first = y[0]  # an integer index: fine
        if not torch.cuda.is_current_stream_capturing():
            print(y.item())  # runs only when not capturing: fine
        out = torch.where(y > 0, y, 0)  # on the device: fine
    return v


def checked(g, x: torch.Tensor, xs: list[torch.Tensor]):
    with torch.cuda.graph(g):
        y = xs.index(x)  # a list of tensors: its index() is an int, fine
        if y > 3:
            raise RuntimeError(f"bad value {x.max()} at {str(x)}")  # raising already ends it: fine
        if x.sum() > 0:
            # CHECK: host-read.py:[[@LINE-1]]:12: error: 'if' condition 'x.sum() > 0' converts a tensor
            raise RuntimeError("negative")


def logged(g, x: torch.Tensor, n: int):
    with torch.cuda.graph(g):
        msg = "loss %.3f" % x
        # CHECK: host-read.py:[[@LINE-1]]:29: error: '%' formatting of 'x' formats a tensor's values on the host
        both = "%d: %s" % (n, x.sum())
        # CHECK: host-read.py:[[@LINE-1]]:31: error: '%' formatting of 'x.sum()' formats a tensor's values on the host
        plain = "step %d of %s" % (n, x.shape)  # host values: fine
    return msg, both, plain
