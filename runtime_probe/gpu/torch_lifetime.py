#!/usr/bin/env python3
"""What a PyTorch graph replays when a tensor it read is gone: the runtime
behaviour capture-dangling-buffer's Python rules prevent, measured.

1. dropped: a function allocates `scale`, captures `out = x * scale` into a
   graph it returns, and lets `scale` go; the caching allocator hands the
   block to the next tensor of that size, and the replay multiplies by
   what that tensor holds.
2. kept: the same with `scale` returned beside the graph: the replay
   multiplies by 2.
3. rebound: a static input rebound to a new tensor (`x = batch`) before a
   replay: the replay reads the old tensor, not the new value.

Prints one line per case and exits 1 unless the dropped and rebound cases
replay the wrong values and the kept case the right ones (the hazards are
real on this machine, and the legal shape is fine).
"""
import sys

import torch

N = 1 << 20


def capture_dropped(x):
    scale = torch.full((N,), 2.0, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):  # CAPTURE-DROPPED
        out = x * scale
    return g, out  # scale is let go here


def capture_kept(x):
    scale = torch.full((N,), 2.0, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):  # CAPTURE-KEPT
        out = x * scale
    return g, out, scale


def replay_error(g, out, x):
    """The largest difference from x * 2 after a replay."""
    g.replay()  # REPLAY
    torch.cuda.synchronize()
    return (out - x * 2).abs().max().item()


def main():
    torch.manual_seed(0)
    x = torch.randn(N, device="cuda")
    torch.cuda.synchronize()
    failures = []

    g, out = capture_dropped(x)  # FREE-DROPPED (scale goes at the return)
    # The next tensors of scale's size take its block back from the pool.
    others = [torch.full((N,), 7.0, device="cuda") for _ in range(4)]
    err = replay_error(g, out, x)
    print(f"dropped: replay max error {err:.3g} (x * 2 expected; the block "
          f"of the dropped 'scale' now holds 7.0)")
    if err == 0:
        failures.append("dropped: the replay read the right values")
    del others

    g, out, scale = capture_kept(x)
    others = [torch.full((N,), 7.0, device="cuda") for _ in range(4)]
    err = replay_error(g, out, x)
    print(f"kept: replay max error {err:.3g}")
    if err != 0:
        failures.append(f"kept: max error {err}")
    del others

    static_x = torch.zeros(N, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):  # CAPTURE-REBOUND
        y = static_x + 1
    batch = torch.full((N,), 5.0, device="cuda")
    static_x = batch  # REBOUND: the graph still reads the old tensor
    g.replay()  # REPLAY-REBOUND
    torch.cuda.synchronize()
    got = y[0].item()
    print(f"rebound: replay gives {got} (6.0 if it read the new value)")
    if got == 6.0:
        failures.append("rebound: the replay read the new value")

    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
