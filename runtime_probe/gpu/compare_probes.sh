#!/usr/bin/env bash
# The probe of this tree side by side with another version's, on the GPU
# machine, in one call: builds both, then runs
#   bench_probe.py with --baseline (plain, this probe, the other one and
#   compute-sanitizer in the same rounds), and
#   probe-bench kinds (microseconds per capture by kind of call) plain, under
#   both probes with CUPTI (CAPTURE_PROBE_CALLS=cupti), and under this probe
#   with CAPTURE_PROBE_EMPTY_CALLBACKS=1 (CUPTI's callbacks alone),
#   alternating, then one CAPTURE_PROBE_PROFILE=1 capture run of each probe
#   (where the probe's own time goes).
# usage: compare_probes.sh OTHER_RUNTIME_PROBE_SOURCE [ROUNDS]
#   (the other version's runtime_probe/ folder, with checks/catalog and
#   cmake/ beside it, as `git archive REV runtime_probe checks/catalog
#   cmake/EmbedCatalog.cmake` leaves them)
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OTHER_SRC="$(cd "$1" && pwd)"
ROUNDS="${2:-15}"
BUILD="${BUILD:-$ROOT/build-gpu}"
OTHER="${OTHER_BUILD:-/tmp/probe-other-build}"
OUTDIR="${OUT:-$BUILD/out}"
mkdir -p "$OUTDIR"
nvidia-smi -L
build() { # SRC DIR NAME [cmake args]
  local src=$1 dir=$2 name=$3; shift 3
  cmake -S "$src" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" \
    >"$OUTDIR/cmake-$name.log" 2>&1 && ninja -C "$dir" >"$OUTDIR/build-$name.log" 2>&1 ||
    { tail -30 "$OUTDIR/build-$name.log" "$OUTDIR/cmake-$name.log"; exit 1; }
}
build "$ROOT/runtime_probe" "$BUILD" this -DCAPTURE_PROBE_GPU_TESTS=ON &
THIS_PID=$!
build "$OTHER_SRC" "$OTHER" other &
OTHER_PID=$!
wait $THIS_PID || exit 1
wait $OTHER_PID || exit 1
BENCH="$BUILD/gpu/probe-bench"
python3 "$ROOT/runtime_probe/gpu/bench_probe.py" "$BUILD/capture-probe" "$BENCH" \
  "$OUTDIR" "$ROUNDS" --baseline "$OTHER/capture-probe" || exit 1
PIN=()
command -v taskset >/dev/null && PIN=(taskset -c "$(($(nproc) - 1))")
R="$OUTDIR/kinds-report.json"
kinds() { # NAME: one run of probe-bench kinds 1000
  case $1 in
    plain) "${PIN[@]}" "$BENCH" kinds 1000 ;;
    this) CAPTURE_PROBE_CALLS=cupti "${PIN[@]}" "$BUILD/capture-probe" run --quiet --no-symbolize --report "$R" -- "$BENCH" kinds 1000 ;;
    other) CAPTURE_PROBE_CALLS=cupti "${PIN[@]}" "$OTHER/capture-probe" run --quiet --no-symbolize --report "$R" -- "$BENCH" kinds 1000 ;;
    empty) CAPTURE_PROBE_CALLS=cupti CAPTURE_PROBE_EMPTY_CALLBACKS=1 "${PIN[@]}" "$BUILD/capture-probe" run --quiet --no-symbolize --report "$R" -- "$BENCH" kinds 1000 ;;
  esac
}
for r in 1 2 3 4 5; do
  for v in plain this other empty; do
    echo "kinds $v $(kinds $v | grep '^kinds')"
  done
done | tee "$OUTDIR/kinds.txt"
for p in this other; do
  dir=$BUILD; [ $p = other ] && dir=$OTHER
  echo "profile ($p):"
  CAPTURE_PROBE_CALLS=cupti CAPTURE_PROBE_PROFILE=1 "${PIN[@]}" "$dir/capture-probe" run --quiet --no-symbolize \
    --report "$R" -- "$BENCH" capture 1000 2>&1 | grep -v '^capture-probe: report'
  ls -la "$R"
done
