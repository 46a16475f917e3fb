# RUN: %expect-exit 1 %capture-lint --quiet %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
import torch

g = torch.cuda.CUDAGraph()
x = torch.zeros(8, device="cuda")
side = torch.cuda.Stream()
other = torch.cuda.Stream()

with torch.cuda.graph(g, stream=torch.cuda.default_stream()):
    # CHECK: legacy-stream.py:[[@LINE-1]]:33: error: 'torch.cuda.default_stream()' names the legacy default stream, whose work during a capture joins the capturing stream implicitly: in a global-mode capture it fails with cudaErrorStreamCaptureImplicit (906)
    y = x + 1

with torch.cuda.graph(g):
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        # CHECK: legacy-stream.py:[[@LINE-1]]:10: error: 'torch.cuda.stream(side)' forks work onto a side stream that is not joined back to the capturing stream before the region ends: in a global-mode capture it fails with cudaErrorStreamCaptureUnjoined (904) and invalidates the capture; join it before the region ends: torch.cuda.current_stream().wait_stream(side)
        # CHECK: legacy-stream.py:[[@LINE-2]]:10: note: 'side' is forked into the capture here
        y = x * 2
    other.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(other):
        z = x * 3
    torch.cuda.current_stream().wait_stream(other)  # joined back: fine
