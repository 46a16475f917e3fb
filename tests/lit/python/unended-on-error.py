# capture-unended-on-error: a capture_begin whose capture_end a return, a
# raise or an exception can skip, and the legal look-alikes beside them.
# RUN: %expect-exit 1 %capture-lint --quiet --checks=capture-unended-on-error %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark|note)}}:"
import torch

g = torch.cuda.CUDAGraph()


def early_return(model, x, bad):
    g.capture_begin()
    y = model(x)
    if bad:
        return None
    # CHECK: unended-on-error.py:[[@LINE-1]]:9: warning: 'return' leaves the function with the capture into graph 'g' still open: the stream stays in capture mode, so later work on it is captured into a graph nobody ends or fails (a second begin fails with cudaErrorIllegalState, syncs and unrelated allocations with cudaErrorStreamCaptureUnsupported); call 'g.capture_end()' before leaving, or end the capture in a finally block, or capture with 'with torch.cuda.graph(...):'
    # CHECK: :[[@LINE+2]]:5: note: 'g.capture_end()' ends it only on the path that reaches it
    # CHECK: :[[@LINE-6]]:5: note: capture into graph 'g' begins here (capture_begin)
    g.capture_end()
    return y


def raises(model, x):
    g.capture_begin()
    y = model(x)
    if y is None:
        raise ValueError("no output")
    # CHECK: unended-on-error.py:[[@LINE-1]]:9: warning: 'raise' leaves the function with the capture into graph 'g' still open
    # CHECK: note: 'g.capture_end()' ends it only on the path that reaches it
    # CHECK: note: capture into graph 'g' begins here
    g.capture_end()
    return y


def no_finally(model, x):
    g.capture_begin()
    y = model(x)
    g.capture_end()
    # CHECK: unended-on-error.py:[[@LINE-1]]:5: warning: 'g.capture_end()' is not in a finally block, so an exception raised after the capture into graph 'g' begins skips it: the stream stays in capture mode
    # CHECK: note: capture into graph 'g' begins here
    return y


# Not reported: the end in a finally block, a return inside its try, the
# context manager, an end before each exit.
def in_finally(model, x, bad):
    g.capture_begin()
    try:
        y = model(x)
        if bad:
            return None
    finally:
        g.capture_end()
    return y


def with_graph(model, x, bad):
    with torch.cuda.graph(g):
        y = model(x)
        if bad:
            return None
    return y


def ends_before_leaving(model, x, bad):
    g.capture_begin()
    try:
        y = model(x)
    except Exception:
        g.capture_end()
        raise
    finally:
        pass
    g.capture_end()
    return y
