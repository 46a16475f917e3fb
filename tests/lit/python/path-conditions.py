# Hazards of followed functions (and of whole captured bodies) that sit on
# one side of a branch on a value the analysis cannot see -- a flag the
# engine sets for graphs, an optional argument, a field of metadata -- are
# remarks that name the branch: the capture may never take that side.
# Hazards on every path, in the region's own body, or under branches on
# values the analysis knows stay findings.
# RUN: %expect-exit 1 %capture-lint --quiet %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
import torch


class Hyps:
    def __init__(self, n):
        self.lengths = torch.zeros(n, dtype=torch.long, device="cuda")
        self.max_length = n

    def add_checked(self, idx: torch.Tensor):
        if (self.lengths + 1).max() >= self.max_length:
            raise RuntimeError("hypotheses are full")
        self.lengths += 1

    def add_unchecked(self, idx: torch.Tensor):
        self.lengths += 1


def split_flags(meta):
    if meta.is_decoding:
        n = meta.start_loc.numel()
        return n // 2
    else:
        starts = meta.start_loc.tolist()
        return starts[len(starts) // 2]


def read_rows(x):
    return x.tolist()


def grouped_matmul(x: torch.Tensor, w_scale: torch.Tensor, use_fp8):
    block = 0
    if use_fp8:
        if w_scale.ndim == 3:
            block = x.shape[1] // w_scale.shape[2]
    if x.dim() == 2:
        x = x.unsqueeze(0)
    return x, block


class Decoder:
    def __init__(self, max_symbols=None):
        self.max_symbols = max_symbols
        self.hyps = Hyps(16)
        self.debug = False
        self.graph = torch.cuda.CUDAGraph()

    def loop_body(self, idx: torch.Tensor):
        if self.max_symbols is None:
            self.hyps.add_checked(idx)
        else:
            self.hyps.add_unchecked(idx)
        return idx.sum().item()

    def finish(self, x: torch.Tensor, lengths):
        # An early exit for a missing argument: the rest is the main path.
        if lengths is None:
            return x
        return x[: lengths.max().item()]

    def stages(self, x: torch.Tensor):
        for i in range(2):
            if i == 0:  # a value the analysis knows
                x = x.nonzero()
        return x

    def rows(self, x: torch.Tensor, verbose):
        if verbose:
            read_rows(x)
        return read_rows(x)  # also reached on every path: one error

    def capture(self, idx: torch.Tensor, meta, w):
        with torch.cuda.graph(self.graph):
            self.loop_body(idx)
            # CHECK: path-conditions.py:[[@LINE-1]]:13: error: call to 'Decoder.loop_body' reaches 2 capture hazards: 1 error, 1 remark [capture-host-read]
            # CHECK: path-conditions.py:[[@LINE-3]]:14: note: capture into graph 'self.graph' begins here
            # CHECK: path-conditions.py:61:16: note: (1/2, error) 'idx.sum().item()', which copies a device value to the host and synchronizes the stream: in a global-mode capture it fails
            # CHECK: path-conditions.py:18:12: note: (2/2, remark) 'if' condition '(self.lengths + 1).max() >= self.max_length', which converts a tensor to a Python value (a device-to-host copy and a stream synchronize, as in item()), on a path taken only when 'self.max_symbols is None' is true (a value not known statically): if the capture takes that path, in a global-mode capture it fails with cudaErrorStreamCaptureUnsupported (900) and invalidates the capture; keep the value on the device
            # CHECK: path-conditions.py:58:13: note: call to 'Hyps.add_checked' here
            # CHECK: path-conditions.py:57:12: note: the path to it is taken only when 'self.max_symbols is None' is true
            split_flags(meta)
            # CHECK: path-conditions.py:[[@LINE-1]]:13: remark: call to 'split_flags' reaches 'meta.start_loc.tolist()', which copies a tensor to a Python list on the host and synchronizes the stream, on a path taken only when 'meta.is_decoding' is false (a value not known statically): if the capture takes that path, in a global-mode capture it fails
            # CHECK: path-conditions.py:27:8: note: the path to it is taken only when 'meta.is_decoding' is false
            self.finish(idx, meta.lengths)
            # CHECK: path-conditions.py:[[@LINE-1]]:13: error: call to 'Decoder.finish' reaches 'lengths.max().item()'
            self.stages(idx)
            # CHECK: path-conditions.py:[[@LINE-1]]:13: error: call to 'Decoder.stages' reaches 'x.nonzero()'
            self.rows(idx, meta.verbose)
            # CHECK: path-conditions.py:[[@LINE-1]]:13: error: call to 'Decoder.rows' reaches 'x.tolist()'
            grouped_matmul(idx, w, self.debug)
            # CHECK: path-conditions.py:[[@LINE-1]]:13: remark: call to 'grouped_matmul' reaches 2 capture hazards: 2 remarks [capture-shape-branch]
            # CHECK: note: (1/2, remark) 'if' condition 'w_scale.ndim == 3', which depends on 'w_scale.ndim' (a tensor shape), on a path taken only when 'use_fp8' is true (a value not known statically): if the capture takes that path, the capture records only the path taken now
            # CHECK: note: (2/2, remark) 'if' condition 'x.dim() == 2'
            # The region's own body is checked on every path.
            if self.debug:
                idx.sum().item()
                # CHECK: path-conditions.py:[[@LINE-1]]:17: error: 'idx.sum().item()' copies a device value
            n = idx.tolist() if meta.verbose else 0
            # CHECK: path-conditions.py:[[@LINE-1]]:17: error: 'idx.tolist()' copies a tensor


class VisionModel:
    def embed_images(self, images: torch.Tensor, crop: torch.Tensor):
        if crop.sum() == 0:
            return images
        return images * 2

    def forward(self, input_ids: torch.Tensor, pixel_values=None, crop=None):  # capture-lint: captured
        # A whole captured body is entered with arguments the analysis does
        # not see: a branch on them is a path condition too.
        if pixel_values is not None:
            embeds = self.embed_images(pixel_values, crop)
            # CHECK: path-conditions.py:[[@LINE-1]]:22: remark: call to 'VisionModel.embed_images' reaches 'if' condition 'crop.sum() == 0', which converts a tensor to a Python value (a device-to-host copy and a stream synchronize, as in item()), on a path taken only when 'pixel_values is not None' is true
            tiles = crop.tolist()
            # CHECK: path-conditions.py:[[@LINE-1]]:21: remark: 'crop.tolist()' copies a tensor to a Python list on the host and synchronizes the stream, on a path taken only when 'pixel_values is not None' is true
        return input_ids.float().sum(-1)
