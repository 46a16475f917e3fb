# capture-unjoined-stream in Python: `with torch.cuda.stream(s):` inside a
# region forks s into the capture; unless the capturing stream waits for s
# before the region ends, capture_end fails with
# cudaErrorStreamCaptureUnjoined (904).
# RUN: %expect-exit 1 %capture-lint --quiet --checks=capture-unjoined-stream %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
import torch


def unjoined(g, x, side):
    with torch.cuda.graph(g):
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            # CHECK: unjoined-stream.py:[[@LINE-1]]:14: error: 'torch.cuda.stream(side)' forks work onto a side stream that is not joined back to the capturing stream before the region ends: in a global-mode capture it fails with cudaErrorStreamCaptureUnjoined (904)
            y = x * 2
    return y


def joined(g, x, side):
    with torch.cuda.graph(g):
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            y = x * 2
        torch.cuda.current_stream().wait_stream(side)  # joined back: fine
    return y
