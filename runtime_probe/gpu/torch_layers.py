"""A multi-layer model under torch.compile(mode="reduce-overhead") with many
captures, for the probe's report-size benchmark (report_size.py): a stack of
transformer encoder layers compiled once and run at four sequence lengths
(each new shape compiles and records a new CUDA graph), and each layer also
captured on its own with torch.cuda.graph at every length. Correct code: the report has
no class. usage: torch_layers.py [LAYERS] [LENGTHS]"""
import sys

import torch

layers = int(sys.argv[1]) if len(sys.argv) > 1 else 12
lengths = int(sys.argv[2]) if len(sys.argv) > 2 else 16
torch.manual_seed(0)
dev = "cuda"
model = torch.nn.TransformerEncoder(
    torch.nn.TransformerEncoderLayer(d_model=256, nhead=4,
                                     dim_feedforward=512, batch_first=True),
    num_layers=layers).to(dev).eval()

compiled = torch.compile(model, mode="reduce-overhead", dynamic=False)
with torch.no_grad():
    for n in range(min(lengths, 4)):  # a compile per shape
        x = torch.randn(4, 16 + 8 * n, 256, device=dev)
        for _ in range(6):  # warm-up, record, then replays
            y = compiled(x)
        err = (y - model(x)).abs().max().item()
        assert err < 1e-2, err

# Each layer captured on its own at every length: layers * lengths graphs.
graphs = []
with torch.no_grad():
    for n in range(lengths):
        x = torch.randn(4, 16 + 8 * n, 256, device=dev)
        for layer in model.layers:
            s = torch.cuda.Stream()
            s.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(s):
                layer(x)  # warm-up on a side stream, as documented
            torch.cuda.current_stream().wait_stream(s)
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g):
                out = layer(x)
            for _ in range(3):  # captured once, replayed
                g.replay()
            graphs.append((g, out))
torch.cuda.synchronize()
print(f"{layers} layers, {lengths} lengths: {len(graphs)} layer graphs")
