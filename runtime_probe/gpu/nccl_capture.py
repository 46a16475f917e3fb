"""One rank of a two-rank program that captures NCCL all-reduces in CUDA
graphs (check_ranks.py starts two, each under capture-probe).
  same     both ranks capture the same collectives (all-reduces and an
           all-gather), then replay them: a correct program
  diverge  rank 1 captures an all-gather where rank 0 captures an
           all-reduce (the graphs are not replayed: they would hang)
  uneven   only rank 0 captures the second all-reduce (a collective under
           a branch on the rank, what capture-collective reports); both
           replay, and each says whether its replay finished within 20 s"""
import time
import os
import sys

import torch
import torch.distributed as dist

mode = sys.argv[1]
rank = int(os.environ["RANK"])
torch.cuda.set_device(rank)
dist.init_process_group("nccl", device_id=torch.device("cuda", rank))
x = torch.ones(1 << 20, device="cuda")
gathered = torch.empty(2 << 20, device="cuda")
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    for _ in range(3):  # warm-up outside capture
        dist.all_reduce(x)
        dist.all_gather_into_tensor(gathered, x)
torch.cuda.current_stream().wait_stream(s)
torch.cuda.synchronize()

g1 = torch.cuda.CUDAGraph()
with torch.cuda.graph(g1):
    dist.all_reduce(x)
g2 = torch.cuda.CUDAGraph()
with torch.cuda.graph(g2):
    if mode == "diverge" and rank == 1:
        dist.all_gather_into_tensor(gathered, x)  # DIVERGES
    elif mode == "uneven":
        if rank == 0:
            dist.all_reduce(x)  # UNEVEN: rank 1's graph lacks it
    else:
        dist.all_reduce(x)
        if mode == "same":
            dist.all_gather_into_tensor(gathered, x)
torch.cuda.synchronize()
if mode == "same":
    for _ in range(3):
        g1.replay()
        g2.replay()
    torch.cuda.synchronize()
    print(f"rank {rank}: x[0] = {x[0].item()}")
elif mode == "uneven":
    g1.replay()
    g2.replay()
    done = torch.cuda.Event()
    done.record()
    start = time.time()
    while not done.query() and time.time() - start < 20:
        time.sleep(0.1)
    print(f"rank {rank}: graph 2 has its all-reduce: {rank == 0}; replay "
          + ("finished" if done.query() else "still waiting after 20 s"))
else:
    print(f"rank {rank}: captured, not replayed")
# destroy_process_group() waits forever here with the graphs alive (seen on
# two H200s without the probe): leave without tearing NCCL down.
sys.stdout.flush()
os._exit(0)
