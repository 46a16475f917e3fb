# Names bound by import statements inside a function (issue 26, cause D of
# the real-code evaluation: CUTLASS's examples import torch in the test
# function, lmdeploy, Megatron-LM and nccl import kernels there) resolve in
# that function's scope: its regions are found and the imported functions
# followed.
# RUN: %expect-exit 1 %capture-lint --quiet %s %S/Inputs/helpers/kern.py \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"


def run(g):
    import torch
    with torch.cuda.graph(g):
        torch.cuda.synchronize()
        # CHECK: local-imports.py:[[@LINE-1]]:9: error: 'torch.cuda.synchronize()' waits for all work on the device
        # CHECK: local-imports.py:[[@LINE-3]]:10: note: capture into graph 'g' begins here (torch.cuda.graph), mode global


def run_alias(g):
    import torch.cuda as tc
    with tc.graph(g, capture_error_mode="relaxed"):
        tc.synchronize()
        # CHECK: local-imports.py:[[@LINE-1]]:9: error: 'tc.synchronize()' waits for all work on the device: in a relaxed-mode capture
        # CHECK: note: capture into graph 'g' begins here (torch.cuda.graph), mode relaxed


def test_graph(g, x):
    import torch
    from helpers.kern import topk
    with torch.cuda.graph(g):
        y = topk(x)
        # CHECK: local-imports.py:[[@LINE-1]]:13: error: call to 'topk' reaches 'torch.cuda.synchronize()'
        # CHECK: kern.py:6:5: note: 'torch.cuda.synchronize()' is called here
        # CHECK: note: capture into graph 'g' begins here


def scoped(g, x):
    # The imports of another function do not reach this one.
    topk = lambda v: v
    with g:
        topk(x)


def test_nested(x):
    # Megatron-LM's tests: the import is in the test, the capture calls a
    # function nested in it that uses the name (a nested function sees the
# imports of the functions around it).
    import torch
    from helpers.kern import topk

    def run():
        return topk(x)

    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = run()
        # CHECK: local-imports.py:[[@LINE-1]]:13: error: call to 'test_nested.run' reaches 'torch.cuda.synchronize()'
        # CHECK: local-imports.py:[[@LINE-6]]:16: note: call to 'topk' here
        # CHECK: kern.py:6:5: note: 'torch.cuda.synchronize()' is called here
        # CHECK: note: capture into graph 'g' begins here
