# RUN: %expect-exit 1 %capture-lint --quiet %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
import torch

g = torch.cuda.CUDAGraph()
side = torch.cuda.Stream()
done = torch.cuda.Event()
x = torch.zeros(8, device="cuda")

torch.cuda.synchronize()  # before the region: fine

with torch.cuda.graph(g):
    y = x * 2
    torch.cuda.synchronize()
    # CHECK: sync-call.py:[[@LINE-1]]:5: error: 'torch.cuda.synchronize()' waits for all work on the device: in a global-mode capture it fails with cudaErrorStreamCaptureUnsupported (900) and invalidates the capture; move it after the region
    # CHECK: sync-call.py:12:6: note: capture into graph 'g' begins here (torch.cuda.graph), mode global
    side.synchronize()
    # CHECK: sync-call.py:[[@LINE-1]]:5: error: 'side.synchronize()' synchronizes with or queries a stream
    torch.cuda.current_stream().synchronize()
    # CHECK: sync-call.py:[[@LINE-1]]:5: error: 'torch.cuda.current_stream().synchronize()' synchronizes
    if done.query():
        # CHECK: sync-call.py:[[@LINE-1]]:8: error: 'done.query()' waits for or queries an event
        pass
    torch.cuda.synchronize()  # NOLINT(capture-sync-call)
    # NOLINTNEXTLINE(capture-sync-call)
    torch.cuda.synchronize()
    torch.cuda.synchronize()  # NOLINT(capture-host-read): another check, still reported
    # CHECK: sync-call.py:[[@LINE-1]]:5: error: 'torch.cuda.synchronize()' waits

torch.cuda.synchronize()  # after the region: fine
g.replay()
