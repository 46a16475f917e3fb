#!/usr/bin/env bash
# The runtime probe's GPU tests. Skips (exit 77, which ctest reports as
# skipped) where no NVIDIA GPU is present; on the device machine it builds
# the probe on its own (no LLVM) with the GPU programs and runs:
#   rows     one program per row of capture-rules.md's CUDA table, blocking
#            and non-blocking streams x three modes, checked against the table
#   harness  probe_region(): clean, diverging, failing, relaxed regions
#   torch    .item() and torch.empty in torch.cuda.graph, and a clean region
#   lifecycle lifecycle.cu's scenarios: node types, capture-to-graph, graph
#            lifecycle, unjoined streams, other threads, silent fallback,
#            the sticky error, call sites (-g, -lineinfo, static runtime)
#   torch    (also) correct PyTorch under --fail-on any: torch.cuda.graph,
#            make_graphed_callables, torch.compile(mode="reduce-overhead")
#   torch-lifetime  torch_lifetime.py plain (its hazards are real), then
#            under the probe: the dropped and rebound tensors are
#            freed-while-held at the right lines, the kept one is not;
#            torch_correct.py silent with the PyTorch hook watching
#   samples  (with SAMPLES=DIR: NVIDIA/cuda-samples exported there by
#            export_samples.sh) the graph samples, built with -lineinfo,
#            under --fail-on any
#   transparency (with SAMPLES=DIR) samples that capture nothing (streams,
#            libraries, the driver API called directly) plain and under both
#            modes of the probe: same exit and verdict, no class, the same
#            eager kernel counts in both modes (check_transparency.py)
#   ranks    (two GPUs) a two-rank NCCL program captured per rank, reports
#            compared with capture-probe compare (same, and diverging)
#   example  examples/decode_loop under the probe (report kept for --confirm)
#   bench    (with --bench) the probe's overhead vs plain and compute-sanitizer
#   report-size (with --bench) the report of a 12-layer model under
#            torch.compile and per-layer torch.cuda.graph (report_size.py)
# The suites run the probe as capture-probe run does by default, without
# CUPTI; CAPTURE_PROBE_CALLS=cupti runs them with CUPTI (what --with-cupti
# does). CAPTURE_PROBE_CALLS=wrappers is the default made explicit (the
# harness, which subscribes to CUPTI in-process, is then skipped).
# ONLY=suite,suite runs a subset. Reports and logs go to $OUT (the device tool's folder) or build-gpu/out.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BENCH=0
for a in "$@"; do
  case "$a" in
    --bench) BENCH=1 ;;
    --from-ctest) ;;
  esac
done
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
  echo "SKIPPED: no NVIDIA GPU here (nvidia-smi lists none). The probe's GPU tests"
  echo "run on a GPU machine: runtime_probe/gpu/run_gpu_tests.sh"
  exit 77
fi
BUILD="${BUILD:-$ROOT/build-gpu}"
OUTDIR="${OUT:-$BUILD/out}"
mkdir -p "$OUTDIR"
nvidia-smi -L
cmake -S "$ROOT/runtime_probe" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCAPTURE_PROBE_GPU_TESTS=ON >"$OUTDIR/cmake.log" 2>&1 || { tail -30 "$OUTDIR/cmake.log"; exit 1; }
ninja -C "$BUILD" >"$OUTDIR/build.log" 2>&1 || { tail -40 "$OUTDIR/build.log"; exit 1; }
PROBE="$BUILD/capture-probe"
declare -a RESULTS
status=0
suite() {
  local name=$1; shift
  # ONLY=a,b runs just those suites (for iterating on the device machine).
  if [ -n "${ONLY:-}" ] && [[ ",$ONLY," != *",$name,"* ]]; then return; fi
  echo "== $name"
  if "$@"; then RESULTS+=("PASS  $name"); else RESULTS+=("FAIL  $name"); status=1; fi
}
suite unit "$BUILD/tests/capture-probe-unittests" --gtest_brief=1
suite rows python3 "$ROOT/runtime_probe/gpu/check_rows.py" "$PROBE" "$BUILD/gpu/rows" "$OUTDIR"
if [ "${CAPTURE_PROBE_CALLS:-}" = wrappers ]; then
  RESULTS+=("SKIP  harness (in-process CUPTI; not with CAPTURE_PROBE_CALLS=wrappers)")
else
  suite harness "$BUILD/gpu/harness-test" --gtest_brief=1
fi
suite lifecycle python3 "$ROOT/runtime_probe/gpu/check_lifecycle.py" "$PROBE" "$BUILD/gpu" "$OUTDIR"
if python3 -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null; then
  suite torch python3 "$ROOT/runtime_probe/gpu/check_torch.py" "$PROBE" "$OUTDIR"
  suite torch-lifetime python3 "$ROOT/runtime_probe/gpu/check_torch_lifetime.py" "$PROBE" "$OUTDIR"
else
  RESULTS+=("SKIP  torch (no PyTorch with CUDA)")
fi
if [ -n "${SAMPLES:-}" ]; then
  suite samples python3 "$ROOT/runtime_probe/gpu/check_samples.py" "$PROBE" "$SAMPLES" "$OUTDIR"
else
  RESULTS+=("SKIP  samples (set SAMPLES to an export of NVIDIA/cuda-samples)")
fi
if [ -z "${SAMPLES:-}" ]; then
  RESULTS+=("SKIP  transparency (set SAMPLES to an export of NVIDIA/cuda-samples)")
elif [ "${CAPTURE_PROBE_CALLS:-}" = cupti ]; then
  RESULTS+=("SKIP  transparency (compares both modes itself: run in the default pass)")
else
  suite transparency python3 "$ROOT/runtime_probe/gpu/check_transparency.py" "$PROBE" "$SAMPLES" "$OUTDIR"
fi
if [ "$(nvidia-smi -L | grep -c '^GPU')" -ge 2 ] && python3 -c 'import torch.distributed' 2>/dev/null; then
  suite ranks python3 "$ROOT/runtime_probe/gpu/check_ranks.py" "$PROBE" "$OUTDIR"
else
  RESULTS+=("SKIP  ranks (needs two GPUs and PyTorch with NCCL)")
fi
suite example python3 "$ROOT/runtime_probe/gpu/check_example.py" "$PROBE" "$ROOT" "$OUTDIR"
if [ "$BENCH" = 1 ]; then
  suite bench python3 "$ROOT/runtime_probe/gpu/bench_probe.py" "$PROBE" "$BUILD/gpu/probe-bench" "$OUTDIR"
  if python3 -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null; then
    suite report-size python3 "$ROOT/runtime_probe/gpu/report_size.py" "$PROBE" "$OUTDIR"
  fi
fi
echo "== GPU test summary"
printf '%s\n' "${RESULTS[@]}"
exit $status
