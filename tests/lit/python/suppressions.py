# Suppression comments (issue 25, item 3): the parser both languages share
# gives Python NOLINTBEGIN/NOLINTEND and ruff's `# noqa: capture-...`, beside
# NOLINT and NOLINTNEXTLINE (sync-call.py). An unmatched NOLINTBEGIN
# silences nothing and says so.
# RUN: %expect-exit 1 %capture-lint %s > %t.out 2> %t.err
# RUN: FileCheck %s < %t.out --implicit-check-not="{{(warning|error|remark)}}:"
# RUN: FileCheck %s --check-prefix=WARN < %t.err
import torch

g = torch.cuda.CUDAGraph()
x = torch.zeros(8, device="cuda")

with torch.cuda.graph(g):
    # NOLINTBEGIN(capture-sync-call)
    torch.cuda.synchronize()
    torch.cuda.current_stream().synchronize()
    # NOLINTEND(capture-sync-call)
    torch.cuda.synchronize()  # noqa: capture-sync-call
    torch.cuda.synchronize()  # noqa: capture-*
    y = x.item()  # noqa
    # NOLINTBEGIN(capture-host-read)
    torch.cuda.synchronize()
    # CHECK: suppressions.py:[[@LINE-1]]:5: error: 'torch.cuda.synchronize()' waits
    z = x.item()
    # NOLINTEND(capture-host-read)
    torch.cuda.synchronize()  # noqa: capture-host-read
    # CHECK: suppressions.py:[[@LINE-1]]:5: error: 'torch.cuda.synchronize()' waits
    # NOLINTBEGIN
    w = x.cpu()
    # CHECK: suppressions.py:[[@LINE-1]]:9: error: 'x.cpu()'
# WARN: suppressions.py:28: NOLINTBEGIN without a matching NOLINTEND silences nothing
g.replay()
