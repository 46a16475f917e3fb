"""Sampling helpers called from the captured decoder."""
import torch


def sample(logits, temperature=0.8):
    probs = torch.softmax(logits / temperature, dim=-1)
    if not torch.cuda.is_current_stream_capturing():
        print("max prob", probs.max().item())  # eager runs only: fine
    token = torch.multinomial(probs, 1)
    if token.max() >= logits.shape[-1]:  # reads a device value back
        raise ValueError("bad token")
    return token
