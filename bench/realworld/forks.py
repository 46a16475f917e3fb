"""Inserted unjoined forks (issue 28, capture-unjoined-stream): after each
region's begin API call whose end follows in the same function, a side
stream forked into the capture and never joined back,

    { static cudaStream_t cl_side; static cudaEvent_t cl_fork;
      cudaEventRecord(cl_fork, STREAM); cudaStreamWaitEvent(cl_side, cl_fork, 0); }

(the hip* names in a HIP region), with STREAM the begin's own stream
argument as written, in a scratch copy of its own. A fork counts as found
when a capture-unjoined-stream finding is at its line. The check is rightly
silent where it cannot tell which stream captures (a stream written as a
call, `at::cuda::getCurrentCUDAStream()`) and for regions ended elsewhere:
misses are listed with the region's kind and function."""

import exits

CHECK = "capture-unjoined-stream"
BEGINS = {"cudaStreamBeginCapture": "cuda", "cudaStreamBeginCapture_v2": "cuda",
          "cudaStreamBeginCaptureToGraph": "cuda",
          "hipStreamBeginCapture": "hip"}
FORK = ("{ static %(p)sStream_t cl_side; static %(p)sEvent_t cl_fork; "
        "%(p)sEventRecord(cl_fork, %(s)s); "
        "%(p)sStreamWaitEvent(cl_side, cl_fork, 0); }")


def stream_argument(plan, region):
    """The begin call's first argument as written, or None."""
    scan = plan.scans.get(region.file)
    if scan is None:
        return None
    toks, pairs = scan.toks, scan.pairs
    open_ = region.index + 1
    if open_ >= len(toks) or toks[open_].text != "(" or open_ not in pairs:
        return None
    depth, out = 0, []
    for t in toks[open_ + 1:pairs[open_]]:
        if t.text in ("(", "[", "{", "<"):
            depth += 1
        elif t.text in (")", "]", "}", ">"):
            depth -= 1
        elif t.text == "," and depth == 0:
            break
        out.append(t.text)
    return " ".join(out) or None


def planned(plan):
    """[(region id, point, statement)]: a fork after each begin API call of
    a region its function also ends, where its depth-0 hazard goes."""
    out = []
    for rid, point in exits.planned(plan):
        region = plan.regions[rid]
        prefix = BEGINS.get(region.name)
        if region.kind != "begin" or not prefix or region.func is None or \
                region.end_index == region.func.close:
            continue
        stream = stream_argument(plan, region)
        if stream:
            out.append((rid, point, FORK % {"p": prefix, "s": stream}))
    return out


def run(args, repo, root, plan):
    """Runs the repository with every planned fork inserted; returns
    ([(region id, file, line)], {region id: how found}, [(entry, error)])."""
    return exits.run_inserted(args, repo, root, planned(plan), CHECK, "forks")
