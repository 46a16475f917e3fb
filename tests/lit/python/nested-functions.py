# A capture region in a function defined inside another function or a
# method (a training callback's `def capture():`, a benchmark's `run_one`):
# its hazards are reported like a top-level function's (issue 26, cause A of
# the real-code evaluation: NeMo, xformers, ktransformers, tensordict).
# RUN: %expect-exit 1 %capture-lint --quiet %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
import torch


def outer(g):
    def inner():
        with torch.cuda.graph(g):
            torch.cuda.synchronize()
            # CHECK: nested-functions.py:[[@LINE-1]]:13: error: 'torch.cuda.synchronize()' waits
            # CHECK: nested-functions.py:[[@LINE-3]]:14: note: capture into graph 'g' begins here
    return inner


class Callback:
    def on_step(self, g):
        def capture():
            def deeper():
                with torch.cuda.graph(g):
                    torch.cuda.synchronize()
                    # CHECK: nested-functions.py:[[@LINE-1]]:21: error: 'torch.cuda.synchronize()' waits
                    # CHECK: nested-functions.py:[[@LINE-3]]:22: note: capture into graph 'g' begins here
            deeper()

        capture()

    def clean(self, g):
        def capture():
            with torch.cuda.graph(g):
                y = torch.ones(4, device="cuda") * 2
            torch.cuda.synchronize()  # after the region: quiet
            return y

        return capture()
