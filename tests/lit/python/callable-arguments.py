# Callables passed as arguments and kept in tables (issue 26, items 4 and
# 7): a helper that calls its parameter runs what each caller passes, also
# through helpers that pass the parameter on, by keyword, to a method, or a
# module instance (its forward); a module-level dispatch table and a list
# of functions hold what they were built from. What a caller passes that
# nobody here can see is named in the unseen-calls warning.
# RUN: %expect-exit 1 %capture-lint %s 2>&1 \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
# CHECK: callable-arguments.py:76:13: error: call to 'apply' reaches 'torch.cuda.synchronize()', which waits for all work on the device
# CHECK: callable-arguments.py:52:12: note: call to 'sync_step' here
# CHECK: callable-arguments.py:39:5: note: 'torch.cuda.synchronize()' is called here
# CHECK: callable-arguments.py:75:10: note: capture into graph 'g' begins here (torch.cuda.graph), mode global
# CHECK: callable-arguments.py:77:13: error: call to 'apply_twice' reaches 'x.sum().item()', which copies a device value to the host and synchronizes the stream
# CHECK: callable-arguments.py:56:21: note: call to 'apply' here
# CHECK: callable-arguments.py:52:12: note: call to 'read_step' here
# CHECK: callable-arguments.py:44:12: note: 'x.sum().item()' is called here
# CHECK: callable-arguments.py:75:10: note: capture into graph 'g' begins here (torch.cuda.graph), mode global
# CHECK: callable-arguments.py:79:13: error: call to 'Runner.run_with' reaches 'torch.cuda.synchronize()', which waits for all work on the device
# CHECK: callable-arguments.py:66:16: note: call to 'sync_step' here
# CHECK: callable-arguments.py:39:5: note: 'torch.cuda.synchronize()' is called here
# CHECK: callable-arguments.py:75:10: note: capture into graph 'g' begins here (torch.cuda.graph), mode global
# CHECK: callable-arguments.py:80:13: error: call to 'apply' reaches 'torch.nonzero(x)', which reads the number of selected elements back to the host to size its output (a D2H copy and a synchronize)
# CHECK: callable-arguments.py:52:12: note: call to 'Block.forward' here
# CHECK: callable-arguments.py:61:16: note: 'torch.nonzero(x)' is called here
# CHECK: callable-arguments.py:75:10: note: capture into graph 'g' begins here (torch.cuda.graph), mode global
# CHECK: callable-arguments.py:81:13: error: call to 'sync_step' reaches 'torch.cuda.synchronize()', which waits for all work on the device
# CHECK: callable-arguments.py:39:5: note: 'torch.cuda.synchronize()' is called here
# CHECK: callable-arguments.py:75:10: note: capture into graph 'g' begins here (torch.cuda.graph), mode global
# CHECK: callable-arguments.py:82:13: error: call to 'read_step' reaches 'x.sum().item()', which copies a device value to the host and synchronizes the stream
# CHECK: callable-arguments.py:44:12: note: 'x.sum().item()' is called here
# CHECK: callable-arguments.py:75:10: note: capture into graph 'g' begins here (torch.cuda.graph), mode global
# CHECK: capture-lint: warning: 1 call in capture regions or the functions they reach goes to callables the analysis cannot see, so what it does was not checked: 'user_fn' (callable-arguments.py:83); annotate the parameter with its class (`def run(model: Decoder)`), analyse the files that build it, or mark what it runs `# capture-lint: captured` (docs/python.md)
# CHECK: capture-lint: 1 file analysed, 6 findings
import torch
from torch import nn


def sync_step(x):
    torch.cuda.synchronize()
    return x


def read_step(x):
    return x.sum().item()


def harmless(x):
    return x * 2


def apply(fn, x):
    return fn(x)


def apply_twice(f, x):
    return apply(f, apply(f, x))


class Block(nn.Module):
    def forward(self, x):
        return torch.nonzero(x)


class Runner:
    def run_with(self, hook, x):
        return hook(x)


HANDLERS = {"sync": sync_step, "read": read_step}
PIPELINE = [harmless, read_step]


def capture(g, x, user_fn):
    runner = Runner()
    with torch.cuda.graph(g):
        a = apply(sync_step, x)
        b = apply_twice(read_step, a)
        c = apply(fn=harmless, x=b)
        d = runner.run_with(sync_step, c)
        e = apply(Block(), d)
        f = HANDLERS["sync"](e)
        h = PIPELINE[1](f)
        i = apply(user_fn, h)
    return i


# The binary before this change: 0 findings, 'fn' and 'f' named unseen.
