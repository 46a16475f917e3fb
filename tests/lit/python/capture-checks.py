# Checks of the capture status as code writes them (issue 26, item 8):
# `if capturing: return` at the top of a function that then captures (a
# guard against nested capture) leaves its region found; a
# raise-if-capturing check inside a `with` block guards what follows the
# block; a check joined with another condition by `and` guards nothing.
# Before: the region after the early return was dropped (0 findings) and
# the check inside `with` did not guard (a false finding).
# RUN: %expect-exit 1 %capture-lint %s 2>&1 \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
# CHECK: capture-checks.py:40:13: error: call to 'maybe_guarded' reaches 'x.item()'
# CHECK: capture-checks.py:49:13: error: 'x.item()' copies a device value to the host
# CHECK: capture-lint: 1 file analysed, 2 findings
import contextlib

import torch


def guarded_in_with(x):
    with contextlib.suppress(KeyError):
        if torch.cuda.is_current_stream_capturing():
            raise RuntimeError("not under capture")
    return x.item()


def maybe_guarded(x, flag):
    if flag and torch.cuda.is_current_stream_capturing():
        return 0
    return x.item()


def guarded(x):
    if torch.cuda.is_current_stream_capturing():
        raise RuntimeError("not under capture")
    return x.item()


def step(g, x, flag):
    with torch.cuda.graph(g):
        a = guarded_in_with(x)
        b = maybe_guarded(x, flag)
        c = guarded(x)
    return a + b + c


def capture_once(g, x):
    if torch.cuda.is_current_stream_capturing():
        return None  # already inside someone's capture
    with torch.cuda.graph(g):
        y = x.item()
    return y
