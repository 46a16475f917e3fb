# A decoding step in the shape of NeMo's batched beam search, lmdeploy's
# model forwards and lightllm's fused MoE: branches on flags and optional
# inputs that the engine fixes before it captures (.capture-lint.json here
# states them; ../../assume.test runs it with and without).
import torch

enable_microbatch = False


class BatchedHyps:
    def __init__(self, n):
        self.lengths = torch.zeros(n, dtype=torch.long, device="cuda")
        self.max_length = n

    def add_results_(self, idx: torch.Tensor):
        if (self.lengths + 1).max() >= self.max_length:
            raise RuntimeError("hypotheses are full")
        self.lengths += 1

    def add_results_no_checks_(self, idx: torch.Tensor):
        self.lengths += 1


def get_split_flags(attn_metadata):
    if attn_metadata.is_decoding:
        return attn_metadata.q_start_loc.numel()
    starts = attn_metadata.q_start_loc.tolist()
    return starts[0]


def max_kv_len(attn_metadata):
    if attn_metadata.is_decoding:
        return attn_metadata.kv_seqlens.max().item()
    return attn_metadata.q_seqlens.tolist()


def fused_moe(x: torch.Tensor, w_scale: torch.Tensor, use_fp8_w8a8):
    block_k = 0
    if use_fp8_w8a8:
        if w_scale.ndim == 3:
            block_k = x.shape[1] // w_scale.shape[2]
    return x, block_k


def prepare_inputs_embeds(inputs_embeds, pixel_values, crop: torch.Tensor):
    if inputs_embeds is None and pixel_values is not None:
        if crop.sum() == 0:
            return None
    return inputs_embeds


class Decoder:
    def __init__(self, max_symbols=None):
        self.max_symbols = max_symbols
        self.hyps = BatchedHyps(16)
        self.verbose = False
        self.graph = torch.cuda.CUDAGraph()

    def _loop_body(self, idx: torch.Tensor, attn_metadata):
        if self.max_symbols is None:
            self.hyps.add_results_(idx)
        else:
            self.hyps.add_results_no_checks_(idx)
        if enable_microbatch:
            get_split_flags(attn_metadata)
        elif not attn_metadata.is_decoding:
            get_split_flags(attn_metadata)
        if self.verbose:
            print(idx.sum().item())
        return idx

    def forward(self, idx: torch.Tensor, attn_metadata, w, s, crop, pixels):
        self._loop_body(idx, attn_metadata)
        max_kv_len(attn_metadata)
        fused_moe(w, s, self.use_fp8)
        fused_moe(w, s, use_fp8_w8a8=True)
        return prepare_inputs_embeds(None, pixels, crop)

    def capture(self, idx: torch.Tensor, attn_metadata, w, s, crop, pixels):
        with torch.cuda.graph(self.graph):
            self.forward(idx, attn_metadata, w, s, crop, pixels)
